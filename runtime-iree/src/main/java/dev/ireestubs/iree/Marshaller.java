package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeArgumentException;
import dev.ireestubs.invoke.IreeResultException;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmResource;
import dev.ireestubs.vm.VmTypeDef;
import dev.ireestubs.vm.VmTypeException;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Converts one call's values between iree-stubs' Java VM types and IREE's native ones: {@link
 * VmList} to {@code iree_vm_list_t} (variant, typed value and typed ref lists, nested), {@link
 * VmValue} to {@code iree_vm_value_t}, {@link BufferView} to {@code iree_hal_buffer_view_t} (one
 * copy into device memory, straight from a direct buffer) and back (read into a new direct
 * buffer). Temporary structs live in the call's confined arena; native lists and buffer views are
 * owned by the lists they are pushed into, so releasing the top-level lists releases everything.
 *
 * <p>One instance per call, used on the calling thread under the session's lock.
 */
final class Marshaller {

  /** How deep lists may nest, either way: deeper structures are refused, never a stack overflow. */
  static final int MAX_DEPTH = 256;

  private static final String ARGUMENTS = "arguments";
  private static final String RESULTS = "results";

  private final IreeSession session;
  private final Native api;
  private final Arena arena;
  private final String function;
  private final MemorySegment outPointer;
  private final MemorySegment value;
  private final MemorySegment typeDef;

  Marshaller(IreeSession session, Arena arena, String function) {
    this.session = session;
    this.api = session.api();
    this.arena = arena;
    this.function = function;
    this.outPointer = arena.allocate(ADDRESS);
    this.value = arena.allocate(Layouts.VM_VALUE);
    this.typeDef = arena.allocate(Layouts.VM_TYPE_DEF);
  }

  // ----------------------------------------------------------------------------------------------
  // Java -> IREE

  /** A new, empty native list of element type {@code word}, owned by the caller. */
  MemorySegment newList(long word, int capacity) {
    typeDef.set(JAVA_LONG, 0, word);
    api.check(
        api.listCreate(typeDef, capacity, session.hostAllocator(), outPointer),
        function + ": iree_vm_list_create");
    return outPointer.get(ADDRESS, 0);
  }

  /**
   * The native form of {@code list}, owned by the caller (release it with {@code
   * iree_vm_list_release}).
   *
   * @throws IreeArgumentException for an element IREE cannot take (a ref of a type this backend
   *     cannot pass, a list that contains itself, nesting deeper than {@link #MAX_DEPTH})
   */
  MemorySegment toNative(VmList arguments) {
    return toNative(arguments, ARGUMENTS, new IdentityHashMap<>(), 0);
  }

  private MemorySegment toNative(
      VmList list, String path, IdentityHashMap<VmList, Boolean> onPath, int depth) {
    if (depth > MAX_DEPTH) {
      throw argument(path, "lists nest more than " + MAX_DEPTH + " deep");
    }
    if (onPath.put(list, Boolean.TRUE) != null) {
      throw argument(path, "the list contains itself; IREE's lists cannot be passed in cycles");
    }
    VmTypeDef type = list.elementType();
    long word =
        Encodings.typeDefWord(type, session.refTypes())
            .orElseThrow(
                () ->
                    argument(
                        path,
                        "a list of " + type + " cannot be passed to IREE: typed ref lists are"
                            + " supported for !" + VmList.REF_TYPE + " and !"
                            + BufferView.REF_TYPE + " only; use a variant list"));
    int size = list.size();
    MemorySegment nativeList = newList(word, size);
    try {
      for (int i = 0; i < size; i++) {
        push(nativeList, i, list.get(i), elementPath(path, depth, i), onPath, depth);
      }
    } catch (RuntimeException | Error e) {
      api.listRelease(nativeList);
      throw e;
    }
    onPath.remove(list);
    return nativeList;
  }

  private void push(
      MemorySegment nativeList,
      int index,
      Object element,
      String path,
      IdentityHashMap<VmList, Boolean> onPath,
      int depth) {
    if (element == null) {
      // An empty slot (variant list) or a null ref (ref list): growing the list leaves it empty.
      api.check(api.listResize(nativeList, index + 1L), function + ": iree_vm_list_resize");
      return;
    }
    if (element instanceof VmValue v) {
      Encodings.writeValue(value, v);
      api.check(
          api.listPushValue(nativeList, value),
          function + ": " + path + ": iree_vm_list_push_value");
      return;
    }
    if (element instanceof BufferView view) {
      MemorySegment bufferView = bufferView(view, path);
      MemorySegment ref = api.bufferViewMoveRef(arena, bufferView);
      pushMove(nativeList, ref, path);
      return;
    }
    if (element instanceof VmList child) {
      MemorySegment childList = toNative(child, path, onPath, depth + 1);
      MemorySegment ref = api.listMoveRef(arena, childList);
      pushMove(nativeList, ref, path);
      return;
    }
    if (element instanceof OpaqueRef opaque) {
      Object payload;
      try {
        payload = opaque.payload();
      } catch (IllegalStateException e) {
        throw argument(path, "the " + opaque.refTypeName() + " ref was closed");
      }
      if (payload instanceof NativeRef nativeRef && nativeRef.runtime() == session.runtime()) {
        api.check(
            api.listPushRefRetain(nativeList, nativeRef.ref()),
            function + ": " + path + ": iree_vm_list_push_ref_retain");
        return;
      }
      throw argument(
          path,
          "a " + opaque.refTypeName() + " ref made outside this IREE runtime cannot be passed to"
              + " it; pass buffer views, lists, values, or refs this runtime returned");
    }
    throw argument(
        path,
        "a " + element.getClass().getName() + " (" + element + ") cannot be passed to IREE; pass"
            + " buffer views, lists, values, or refs this runtime returned");
  }

  /** Pushes an owned ref, releasing it if the push fails. */
  private void pushMove(MemorySegment nativeList, MemorySegment ref, String path) {
    long status = api.listPushRefMove(nativeList, ref);
    if (status != 0) {
      api.refRelease(ref); // a failed move leaves the ref with us; releasing a moved one is a no-op
      throw api.failure(status, function + ": " + path + ": iree_vm_list_push_ref_move");
    }
  }

  /**
   * A new device buffer view holding a copy of {@code view}'s bytes, owned by the caller. Direct
   * buffers are copied once, straight into device memory; heap buffers go through native memory
   * first.
   */
  @SuppressWarnings("restricted") // a segment over a direct buffer's own memory
  private MemorySegment bufferView(BufferView view, String path) {
    long[] shape = view.shape();
    ByteBuffer data = view.data();
    int length = data.remaining();
    MemorySegment bytes;
    if (data.isDirect()) {
      // A fresh segment over the same memory: writable or not, the address is what IREE reads.
      bytes = MemorySegment.ofAddress(MemorySegment.ofBuffer(data).address()).reinterpret(length);
    } else {
      bytes = arena.allocate(Math.max(length, 1), 64);
      MemorySegment.copy(MemorySegment.ofBuffer(data), 0, bytes, 0, length);
    }
    MemorySegment dims = arena.allocate(JAVA_LONG, Math.max(shape.length, 1));
    for (int i = 0; i < shape.length; i++) {
      dims.setAtIndex(JAVA_LONG, i, shape[i]);
    }
    MemorySegment span = arena.allocate(Layouts.BYTE_SPAN);
    span.set(ADDRESS, Layouts.BYTE_SPAN_DATA, length == 0 ? MemorySegment.NULL : bytes);
    span.set(JAVA_LONG, Layouts.BYTE_SPAN_LENGTH, length);
    long status =
        api.bufferViewAllocateBufferCopy(
            session.halDevice(),
            session.deviceAllocator(),
            shape.length,
            dims,
            view.elementTypeCode(),
            Encodings.ENCODING_DENSE_ROW_MAJOR,
            session.bufferParams(),
            span,
            outPointer);
    Reference.reachabilityFence(data);
    api.check(
        status,
        function + ": " + path + " (" + view + "): iree_hal_buffer_view_allocate_buffer_copy");
    return outPointer.get(ADDRESS, 0);
  }

  // ----------------------------------------------------------------------------------------------
  // IREE -> Java

  /**
   * The Java form of a native list the caller keeps owning: values, buffer views read back into
   * host memory, nested lists (shared and cyclic structure kept), and other refs as {@link
   * OpaqueRef}s that retain the native ref until closed.
   *
   * @throws IreeResultException for a result that cannot be represented (an unknown value type, a
   *     buffer view that is not dense, over 2 GiB, or of sub-byte elements)
   */
  VmList fromNative(MemorySegment results) {
    Map<Long, VmList> seen = new HashMap<>();
    try {
      return fromNative(results, RESULTS, seen, 0);
    } catch (RuntimeException | Error e) {
      // Release the refs already retained into the lists built so far.
      for (VmList partial : seen.values()) {
        try {
          partial.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  private VmList fromNative(
      MemorySegment nativeList, String path, Map<Long, VmList> seen, int depth) {
    VmList known = seen.get(nativeList.address());
    if (known != null) {
      return known;
    }
    if (depth > MAX_DEPTH) {
      throw result(path, "lists nest more than " + MAX_DEPTH + " deep");
    }
    long word = api.listElementType(arena, nativeList).get(JAVA_LONG, 0);
    long size = api.listSize(nativeList);
    if (size > VmList.MAX_CAPACITY) {
      throw result(path, "a list of " + size + " elements is too large for a VmList");
    }
    VmTypeDef type = typeDefOf(word, path);
    VmList list = VmList.create(type, (int) size);
    seen.put(nativeList.address(), list);
    MemorySegment variant = arena.allocate(Layouts.VM_VARIANT);
    for (long i = 0; i < size; i++) {
      String at = elementPath(path, depth, i);
      Object element;
      if (type.isValue()) {
        api.check(
            api.listGetValue(nativeList, i, value),
            function + ": " + at + ": iree_vm_list_get_value");
        element = Encodings.readValue(value).orElse(null);
      } else {
        api.check(
            api.listGetVariantAssign(nativeList, i, variant),
            function + ": " + at + ": iree_vm_list_get_variant_assign");
        element = variantElement(variant, at, seen, depth);
      }
      try {
        list.push(element);
      } catch (VmTypeException | IllegalArgumentException e) {
        VmResource.closeIfResource(element);
        throw result(
            at, "IREE returned " + element + " in a list of " + type + ": " + e.getMessage());
      }
    }
    return list;
  }

  private VmTypeDef typeDefOf(long word, String path) {
    switch (Encodings.kindOf(word)) {
      case VARIANT:
        return VmTypeDef.VARIANT;
      case VALUE:
        int code = Encodings.valueTypeCode(word);
        return VmTypeDef.value(
            VmValueType.fromCode(code)
                .orElseThrow(
                    () -> result(path, "IREE returned a list of unknown value type " + code)));
      default:
        return VmTypeDef.ref(refTypeName(word));
    }
  }

  private String refTypeName(long refType) {
    if (session.refTypes().isList(refType)) {
      return VmList.REF_TYPE;
    }
    if (session.refTypes().isBufferView(refType)) {
      return BufferView.REF_TYPE;
    }
    String name = Native.readStringView(api.refTypeName(arena, refType)).strip();
    return name.isEmpty() || name.chars().anyMatch(Character::isWhitespace) || name.startsWith("!")
        ? "unknown"
        : name;
  }

  private Object variantElement(
      MemorySegment variant, String path, Map<Long, VmList> seen, int depth) {
    long word = variant.get(JAVA_LONG, Layouts.VM_VARIANT_TYPE);
    switch (Encodings.kindOf(word)) {
      case VARIANT:
        return null; // an empty slot
      case VALUE:
        int code = Encodings.valueTypeCode(word);
        try {
          return Encodings.readUnion(variant, Layouts.VM_VARIANT_VALUE, code);
        } catch (IllegalArgumentException e) {
          throw result(path, "IREE returned a value of unknown type " + code);
        }
      default:
        break;
    }
    MemorySegment ptr = variant.get(ADDRESS, Layouts.VM_VARIANT_REF_PTR);
    if (ptr.address() == 0) {
      return null; // a null ref
    }
    long refType = variant.get(JAVA_LONG, Layouts.VM_VARIANT_REF_TYPE);
    if (session.refTypes().isBufferView(refType)) {
      return readBufferView(ptr, path);
    }
    if (session.refTypes().isList(refType)) {
      return fromNative(ptr, path, seen, depth + 1);
    }
    return opaque(variant.asSlice(Layouts.VM_VARIANT_REF_PTR, Layouts.VM_REF.byteSize()), refType);
  }

  /** A host copy of a device buffer view the list still owns. */
  private BufferView readBufferView(MemorySegment bufferView, String path) {
    int rank = (int) Math.min(api.bufferViewShapeRank(bufferView), Integer.MAX_VALUE);
    long[] shape = new long[rank];
    for (int i = 0; i < rank; i++) {
      shape[i] = api.bufferViewShapeDim(bufferView, i);
    }
    int elementType = api.bufferViewElementType(bufferView);
    int encoding = api.bufferViewEncodingType(bufferView);
    String described =
        "a buffer view of shape " + Arrays.toString(shape) + " and element type 0x"
            + Integer.toHexString(elementType);
    if (encoding != Encodings.ENCODING_DENSE_ROW_MAJOR && encoding != Encodings.ENCODING_OPAQUE) {
      throw result(
          path,
          "IREE returned " + described + " with encoding 0x" + Integer.toHexString(encoding)
              + "; only dense row-major buffer views can be read back");
    }
    long length = api.bufferViewByteLength(bufferView);
    if (length < 0 || length > Integer.MAX_VALUE) {
      throw result(
          path, "IREE returned " + described + " of " + length + " bytes; the limit is 2 GiB - 1");
    }
    ByteBuffer host = ByteBuffer.allocateDirect((int) length).order(ByteOrder.nativeOrder());
    if (length > 0) {
      MemorySegment target = MemorySegment.ofBuffer(host);
      api.check(
          api.deviceTransferD2h(
              session.halDevice(),
              api.bufferViewBuffer(bufferView),
              0L,
              target,
              length,
              0,
              session.infiniteTimeout()),
          function + ": " + path + ": iree_hal_device_transfer_d2h");
    }
    try {
      return BufferView.wrap(elementType, shape, host);
    } catch (IllegalArgumentException e) {
      throw result(
          path, "IREE returned " + described + " that cannot be read back: " + e.getMessage());
    }
  }

  /** An opaque ref retaining a native ref of a type this backend does not convert. */
  private OpaqueRef opaque(MemorySegment borrowedRef, long refType) {
    String name = refTypeName(refType);
    Arena refArena = Arena.ofShared();
    MemorySegment owned = refArena.allocate(Layouts.VM_REF);
    api.refRetain(borrowedRef, owned);
    NativeRef payload = new NativeRef(session.runtime(), owned);
    Native lib = api;
    return OpaqueRef.withRelease(
        name,
        payload,
        () -> {
          try {
            lib.refRelease(owned);
          } finally {
            refArena.close();
          }
        });
  }

  // ----------------------------------------------------------------------------------------------

  /** {@code arg0}, {@code result1} at the top level; {@code arg0[2][1]} below. */
  private static String elementPath(String path, int depth, long index) {
    if (depth == 0) {
      return (path.equals(ARGUMENTS) ? "arg" : "result") + index;
    }
    return path + "[" + index + "]";
  }

  private IreeArgumentException argument(String path, String problem) {
    return new IreeArgumentException(function + ": " + path, problem);
  }

  private IreeResultException result(String path, String problem) {
    return new IreeResultException(function + ": " + path, problem);
  }
}
