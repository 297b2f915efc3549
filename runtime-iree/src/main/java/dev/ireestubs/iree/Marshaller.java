package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmResource;
import dev.ireestubs.vm.VmTypeDef;
import dev.ireestubs.vm.VmTypeException;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Converts one call's values between iree-stubs' Java VM types and IREE's native ones: {@link
 * VmList} to {@code iree_vm_list_t} (variant, typed value and typed ref lists, nested), {@link
 * VmValue} to {@code iree_vm_value_t}, {@link BufferView} to {@code iree_hal_buffer_view_t} and
 * back (through {@link BufferTransfer}: imported and mapped without copies where the device shares
 * host memory). Native lists and buffer views are owned by the lists they are pushed into, so
 * releasing the top-level lists releases everything.
 *
 * <p>A session keeps one instance and reuses it for every call ({@link #begin}, {@link #end}): its
 * native scratch structs live as long as the session, and a call that passes allocates no message
 * text and no per-call arena unless heap bytes must be copied. Used on the calling thread under the
 * session's lock.
 */
final class Marshaller {

  /** How deep lists may nest, either way: deeper structures are refused, never a stack overflow. */
  static final int MAX_DEPTH = 256;

  /** Ranks up to this use the reusable dims array; higher ones a per-call one. */
  private static final int SCRATCH_RANK = 16;

  private static final String ARGUMENTS = "arguments";
  private static final String RESULTS = "results";
  private static final String[] ARG_PATHS = paths("arg");
  private static final String[] RESULT_PATHS = paths("result");

  private final SessionNatives session;
  private final Native api;
  private final ListCalls lists;
  private final StatusCalls statuses;
  private final BufferViewCalls bufferViews;
  private final BufferTransfer transfer;
  private final MemorySegment outPointer;
  private final MemorySegment value;
  private final MemorySegment typeDef;
  private final MemorySegment variant;
  private final MemorySegment dims;
  private final MemorySegment ref;
  private final MemorySegment returned16;

  /** Reusable dims of results, by rank ({@link #resultShape}). */
  private final long[][] resultShapes = new long[SCRATCH_RANK][];

  /** Struct returns (string views) land in a reusable slot. */
  private final SegmentAllocator returns;

  /** The per-call arena, made only when something (a copy of heap bytes) needs it. */
  private final Supplier<Arena> scratch = this::callArena;

  // Per call.
  private String function = "";
  private Arena callArena;
  private IdentityHashMap<VmList, Boolean> onPath;
  private Map<Long, VmList> seen;
  private long topAddress;
  private VmList topList;

  /** A marshaller whose scratch memory lives in {@code arena} (the session's, or a test's). */
  Marshaller(SessionNatives session, Arena arena) {
    this.session = session;
    this.api = session.api();
    this.lists = api.lists();
    this.statuses = api.status();
    this.bufferViews = api.bufferViews();
    this.transfer = new BufferTransfer(session, arena);
    this.outPointer = arena.allocate(ADDRESS);
    this.value = arena.allocate(Layouts.VM_VALUE);
    this.typeDef = arena.allocate(Layouts.VM_TYPE_DEF);
    this.variant = arena.allocate(Layouts.VM_VARIANT);
    this.dims = arena.allocate(JAVA_LONG, SCRATCH_RANK);
    this.ref = arena.allocate(Layouts.VM_REF);
    this.returned16 = arena.allocate(16, 8);
    this.returns =
        (size, alignment) -> size == 16 ? returned16 : callArena().allocate(size, alignment);
  }

  /** A marshaller ready for one call of {@code function} (tests). */
  Marshaller(SessionNatives session, Arena arena, String function) {
    this(session, arena);
    begin(function);
  }

  /** Starts a call of {@code function} (for messages). */
  void begin(String functionName) {
    this.function = functionName;
    this.onPath = null;
    this.seen = null;
    this.topList = null;
  }

  /** Ends the call: frees per-call native memory (copies of heap bytes). */
  void end() {
    if (callArena != null) {
      callArena.close();
      callArena = null;
    }
    onPath = null;
    seen = null;
    topList = null;
  }

  /** Releases what the marshaller keeps between calls: before the session is released. */
  void close() {
    transfer.close();
  }

  private Arena callArena() {
    if (callArena == null) {
      callArena = Arena.ofConfined();
    }
    return callArena;
  }

  // ----------------------------------------------------------------------------------------------
  // Java -> IREE

  /** A new, empty native list of element type {@code word}, owned by the caller. */
  long newList(long word, int capacity) {
    typeDef.set(JAVA_LONG, 0, word);
    long status = lists.listCreate(typeDef, capacity, session.hostAllocator(), outPointer);
    if (status != 0) {
      throw statuses.failure(status, function + ": iree_vm_list_create");
    }
    return outPointer.get(JAVA_LONG, 0);
  }

  /**
   * The native form of {@code list}, owned by the caller (release it with {@code
   * iree_vm_list_release}).
   *
   * @throws IreeValueException (an argument) for an element IREE cannot take (a ref of a type this
   *     backend cannot pass, a list that contains itself, nesting deeper than {@link #MAX_DEPTH})
   */
  long toNative(VmList arguments) {
    onPath = null; // made when a nested list first appears: flat lists need no cycle check
    topList = arguments;
    return toNative(arguments, ARGUMENTS, 0);
  }

  private long toNative(VmList list, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw argument(path, "lists nest more than " + MAX_DEPTH + " deep");
    }
    if (depth > 0) {
      if (onPath == null) {
        onPath = new IdentityHashMap<>();
        onPath.put(topList, Boolean.TRUE);
      }
      if (onPath.put(list, Boolean.TRUE) != null) {
        throw argument(path, "the list contains itself; IREE's lists cannot be passed in cycles");
      }
    }
    VmTypeDef type = list.elementType();
    long word =
        type.isVariant()
            ? 0L // the common case, without an Optional and a lambda
            : Encodings.typeDefWord(type, session.refTypes())
                .orElseThrow(
                    () ->
                        argument(
                            path,
                            "a list of "
                                + type
                                + " cannot be passed to IREE: typed ref lists are"
                                + " supported for !"
                                + VmList.REF_TYPE
                                + " and !"
                                + BufferView.REF_TYPE
                                + " only; use a variant list"));
    int size = list.size();
    long nativeList = newList(word, size);
    try {
      for (int i = 0; i < size; i++) {
        push(nativeList, i, list.get(i), elementPath(path, depth, i), depth);
      }
    } catch (RuntimeException | Error e) {
      lists.listRelease(nativeList);
      throw e;
    }
    if (onPath != null) {
      onPath.remove(list);
    }
    return nativeList;
  }

  private void push(long nativeList, int index, Object element, String path, int depth) {
    if (element == null) {
      // An empty slot (variant list) or a null ref (ref list): growing the list leaves it empty.
      statuses.check(
          lists.listResize(nativeList, index + 1L), function, path, "iree_vm_list_resize");
      return;
    }
    if (element instanceof VmValue v) {
      Encodings.writeValue(value, v);
      statuses.check(
          lists.listPushValue(nativeList, value), function, path, "iree_vm_list_push_value");
      return;
    }
    if (element instanceof BufferView view) {
      long bufferView = transfer.toDevice(view, dims(view), scratch, function, path);
      pushMove(nativeList, bufferView, session.refTypes().bufferView(), path);
      return;
    }
    if (element instanceof VmList child) {
      long childList = toNative(child, path, depth + 1);
      pushMove(nativeList, childList, session.refTypes().list(), path);
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
        statuses.check(
            lists.listPushRefRetain(nativeList, nativeRef.ref()),
            function,
            path,
            "iree_vm_list_push_ref_retain");
        return;
      }
      throw argument(
          path,
          "a "
              + opaque.refTypeName()
              + " ref made outside this IREE runtime cannot be passed to"
              + " it; pass buffer views, lists, values, or refs this runtime returned");
    }
    throw argument(
        path,
        "a "
            + element.getClass().getName()
            + " ("
            + element
            + ") cannot be passed to IREE; pass"
            + " buffer views, lists, values, or refs this runtime returned");
  }

  /**
   * Pushes an owned object as a ref of {@code refType} (what {@code iree_hal_buffer_view_move_ref}
   * and {@code iree_vm_list_move_ref} return: the pointer and the registered type, no retain),
   * releasing it if the push fails.
   */
  private void pushMove(long nativeList, long object, long refType, String path) {
    ref.set(JAVA_LONG, Layouts.VM_REF_PTR, object);
    ref.set(JAVA_LONG, Layouts.VM_REF_TYPE, refType);
    long status = lists.listPushRefMove(nativeList, ref);
    if (status != 0) {
      // A failed move leaves the ref with us; releasing a moved one is a no-op.
      lists.refRelease(ref);
      throw statuses.failure(status, function + ": " + path + ": iree_vm_list_push_ref_move");
    }
  }

  /** {@code view}'s shape as {@code iree_hal_dim_t}s, in reusable memory when the rank allows. */
  private MemorySegment dims(BufferView view) {
    int rank = view.rank();
    MemorySegment out = rank <= SCRATCH_RANK ? dims : callArena().allocate(JAVA_LONG, rank);
    for (int i = 0; i < rank; i++) {
      out.setAtIndex(JAVA_LONG, i, view.dim(i));
    }
    return out;
  }

  // ----------------------------------------------------------------------------------------------
  // IREE -> Java

  /**
   * The Java form of a native list the caller keeps owning: values, buffer views read back into
   * host memory, nested lists (shared and cyclic structure kept), and other refs as {@link
   * OpaqueRef}s that retain the native ref until closed.
   *
   * @throws IreeValueException (a result) for a result that cannot be represented (an unknown value
   *     type, a buffer view that is not dense, over 2 GiB, or of sub-byte elements)
   */
  VmList fromNative(long results) {
    seen = null; // made when a nested list first appears: flat results need no sharing map
    topAddress = results;
    topList = null;
    try {
      return fromNative(results, RESULTS, 0);
    } catch (RuntimeException | Error e) {
      // Release the refs already retained into the lists built so far.
      Iterable<VmList> partial =
          seen != null ? seen.values() : topList != null ? List.of(topList) : List.of();
      for (VmList list : partial) {
        try {
          list.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  private VmList fromNative(long nativeList, String path, int depth) {
    if (depth > 0) {
      if (seen == null) {
        seen = new HashMap<>();
        seen.put(topAddress, topList);
      }
      VmList known = seen.get(nativeList);
      if (known != null) {
        return known;
      }
    }
    if (depth > MAX_DEPTH) {
      throw result(path, "lists nest more than " + MAX_DEPTH + " deep");
    }
    long word = lists.listElementType(nativeList);
    long size = lists.listSize(nativeList);
    if (size > VmList.MAX_CAPACITY) {
      throw result(path, "a list of " + size + " elements is too large for a VmList");
    }
    VmTypeDef type = typeDefOf(word, path);
    VmList list = VmList.create(type, (int) size);
    if (depth == 0) {
      topList = list;
    } else {
      seen.put(nativeList, list);
    }
    for (long i = 0; i < size; i++) {
      String at = elementPath(path, depth, i);
      Object element;
      if (type.isValue()) {
        statuses.check(
            lists.listGetValue(nativeList, i, value), function, at, "iree_vm_list_get_value");
        element = Encodings.readValue(value).orElse(null);
      } else {
        statuses.check(
            lists.listGetVariantAssign(nativeList, i, variant),
            function,
            at,
            "iree_vm_list_get_variant_assign");
        element = variantElement(variant, at, depth);
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
      case VARIANT -> {
        return VmTypeDef.VARIANT;
      }
      case VALUE -> {
        int code = Encodings.valueTypeCode(word);
        return VmTypeDef.value(
            VmValueType.fromCode(code)
                .orElseThrow(
                    () -> result(path, "IREE returned a list of unknown value type " + code)));
      }
      default -> {
        return VmTypeDef.ref(refTypeName(word));
      }
    }
  }

  private String refTypeName(long refType) {
    if (session.refTypes().isList(refType)) {
      return VmList.REF_TYPE;
    }
    if (session.refTypes().isBufferView(refType)) {
      return BufferView.REF_TYPE;
    }
    String name = StringViews.read(lists.refTypeName(returns, refType)).strip();
    return name.isEmpty() || name.chars().anyMatch(Character::isWhitespace) || name.startsWith("!")
        ? "unknown"
        : name;
  }

  private Object variantElement(MemorySegment variant, String path, int depth) {
    long word = variant.get(JAVA_LONG, Layouts.VM_VARIANT_TYPE);
    switch (Encodings.kindOf(word)) {
      case VARIANT -> {
        return null;
        // an empty slot
      }
      case VALUE -> {
        int code = Encodings.valueTypeCode(word);
        try {
          return Encodings.readUnion(variant, Layouts.VM_VARIANT_VALUE, code);
        } catch (IllegalArgumentException e) {
          throw result(path, "IREE returned a value of unknown type " + code);
        }
      }
      default -> {}
    }
    long ptr = variant.get(JAVA_LONG, Layouts.VM_VARIANT_REF_PTR);
    if (ptr == 0) {
      return null; // a null ref
    }
    long refType = variant.get(JAVA_LONG, Layouts.VM_VARIANT_REF_TYPE);
    if (session.refTypes().isBufferView(refType)) {
      return readBufferView(ptr, path);
    }
    if (session.refTypes().isList(refType)) {
      return fromNative(ptr, path, depth + 1);
    }
    return opaque(variant.asSlice(Layouts.VM_VARIANT_REF_PTR, Layouts.VM_REF.byteSize()), refType);
  }

  /**
   * A Java view of a result buffer view the list still owns: its mapped memory where the device
   * shares host memory, else a host copy ({@link BufferTransfer#fromDevice}).
   */
  private BufferView readBufferView(long bufferView, String path) {
    int rank = (int) Math.min(bufferViews.bufferViewShapeRank(bufferView), Integer.MAX_VALUE);
    long[] shape = resultShape(rank);
    for (int i = 0; i < rank; i++) {
      shape[i] = bufferViews.bufferViewShapeDim(bufferView, i);
    }
    int elementType = bufferViews.bufferViewElementType(bufferView);
    int encoding = bufferViews.bufferViewEncodingType(bufferView);
    if (encoding != Encodings.ENCODING_DENSE_ROW_MAJOR && encoding != Encodings.ENCODING_OPAQUE) {
      throw result(
          path,
          "IREE returned "
              + described(shape, elementType)
              + " with encoding 0x"
              + Integer.toHexString(encoding)
              + "; only dense row-major buffer views can be read back");
    }
    long length = bufferViews.bufferViewByteLength(bufferView);
    if (length < 0 || length > Integer.MAX_VALUE) {
      throw result(
          path,
          "IREE returned "
              + described(shape, elementType)
              + " of "
              + length
              + " bytes; the limit is 2 GiB - 1");
    }
    ByteBuffer data = transfer.fromDevice(bufferView, length, function, path);
    MemoryLease lease = transfer.takeResultLease();
    try {
      // A mapping's lease releases it when the array made over the result is closed.
      return lease == null
          ? BufferView.wrap(elementType, shape, data)
          : BufferView.lend(elementType, shape, data, lease);
    } catch (IllegalArgumentException e) {
      throw result(
          path,
          "IREE returned "
              + described(shape, elementType)
              + " that cannot be read back: "
              + e.getMessage());
    }
  }

  /**
   * An array for a result's dims: reused from call to call for small ranks (the buffer view made
   * from it copies it), new for larger ones.
   */
  private long[] resultShape(int rank) {
    if (rank >= SCRATCH_RANK) {
      return new long[rank];
    }
    long[] shape = resultShapes[rank];
    if (shape == null) {
      shape = new long[rank];
      resultShapes[rank] = shape;
    }
    return shape;
  }

  private static String described(long[] shape, int elementType) {
    return "a buffer view of shape "
        + Arrays.toString(shape)
        + " and element type 0x"
        + Integer.toHexString(elementType);
  }

  /** An opaque ref retaining a native ref of a type this backend does not convert. */
  private OpaqueRef opaque(MemorySegment borrowedRef, long refType) {
    String name = refTypeName(refType);
    Arena refArena = Arena.ofShared();
    MemorySegment owned = refArena.allocate(Layouts.VM_REF);
    lists.refRetain(borrowedRef, owned);
    NativeRef payload = new NativeRef(session.runtime(), owned);
    Native lib = api;
    return OpaqueRef.withRelease(
        name,
        payload,
        () -> {
          try {
            lib.lists().refRelease(owned);
          } finally {
            refArena.close();
          }
        });
  }

  // ----------------------------------------------------------------------------------------------

  /** {@code arg0}, {@code result1} at the top level; {@code arg0[2][1]} below. */
  private static String elementPath(String path, int depth, long index) {
    if (depth == 0) {
      String[] named = path.equals(ARGUMENTS) ? ARG_PATHS : RESULT_PATHS;
      return index < named.length
          ? named[(int) index]
          : (path.equals(ARGUMENTS) ? "arg" : "result") + index;
    }
    return path + "[" + index + "]";
  }

  private static String[] paths(String prefix) {
    String[] out = new String[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = prefix + i;
    }
    return out;
  }

  private IreeValueException argument(String path, String problem) {
    return IreeValueException.of(Side.ARGUMENT, function + ": " + path, problem);
  }

  private IreeValueException result(String path, String problem) {
    return IreeValueException.of(Side.RESULT, function + ": " + path, problem);
  }
}
