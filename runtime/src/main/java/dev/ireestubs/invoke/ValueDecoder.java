package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.BoolArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decoding, VM to Java: the Java value of a VM list element by the type its signature declares (the
 * forms {@link AbiValues} tabulates), checked on the way with {@link ValueChecks}: a boxed scalar,
 * an n-d array over the element's buffer view, an unmodifiable {@code List} or {@code Map} ({@link
 * DictValues}) for a structure, a ref; a {@code null} or {@code unknown} type by what arrived.
 * Behind {@link AbiValues#decode} and {@link AbiValues#unpackResults}, which host modules and
 * dynamic calls run on every call.
 */
final class ValueDecoder {

  private ValueDecoder() {}

  /** {@link AbiValues#decode} at {@code depth} levels of nesting; {@code path} null: no paths. */
  static Object decode(AbiType declared, Object element, String path, int depth) {
    if (depth > AbiValues.MAX_DEPTH) {
      throw AbiValues.tooDeep(Side.RESULT, path);
    }
    if (declared instanceof AbiType.Named named) {
      return decode(named.type(), element, path, depth);
    }
    if (declared instanceof AbiType.Scalar scalar) {
      return decodeScalar(scalar.element(), element, path);
    }
    if (declared instanceof AbiType.NdArray type) {
      BufferView view = ValueChecks.bufferView(element, type, Side.RESULT, path);
      if (type.element().kind() == ElementType.Kind.BOOLEAN) {
        return BoolArray.fromBufferView(view); // i1 may arrive in 8-bit storage: read as booleans
      }
      return toArray(view);
    }
    if (declared instanceof AbiType.Dict || declared instanceof AbiType.Sequence) {
      int size = childCount(declared);
      VmList list = ValueChecks.list(element, declared, size, Side.RESULT, path);
      return decodeChildren(declared, list, path, depth + 1);
    }
    if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      VmList list = ValueChecks.list(element, declared, -1, Side.RESULT, path);
      AbiType type = homogeneousList.element();
      List<Object> values = new ArrayList<>(list.size());
      String each = ValuePaths.each(path);
      for (int i = 0; i < list.size(); i++) {
        try {
          values.add(decode(type, list.get(i), each, depth + 1));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return Collections.unmodifiableList(values);
    }
    if (declared instanceof AbiType.Any || declared instanceof AbiType.Unknown) {
      return decodeDynamic(element, path, depth); // "unknown": whatever the VM holds
    }
    if (declared instanceof AbiType.Unsupported unsupported) {
      throw VmElementChecks.unsupported(unsupported, Side.RESULT, path);
    }
    // Ref
    VmRef ref = ValueChecks.ref(element, Side.RESULT, path);
    if (ref != null) {
      VmElementChecks.checkRefType(declared, ref, Side.RESULT, path);
    }
    if (ref instanceof VmList && isListSlot(declared)) {
      return decodeDynamic(ref, path, depth); // as IREE's Python invoker: a list, not a handle
    }
    return ref;
  }

  /** The children of an inlined or nested structure, as a Map (sdict) or a List. */
  static Object decodeChildren(AbiType structure, VmList list, String path, int depth) {
    if (structure instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      String[] keys = new String[entries.size()];
      Object[] values = new Object[entries.size()];
      for (int i = 0; i < entries.size(); i++) {
        AbiType.Entry e = entries.get(i);
        keys[i] = e.key();
        values[i] = decode(e.type(), list.get(i), ValuePaths.member(path, e.key()), depth);
      }
      return new DictValues(keys, values);
    }
    List<AbiType> elements = ((AbiType.Sequence) structure).elements();
    List<Object> values = new ArrayList<>(elements.size());
    String each = ValuePaths.each(path);
    for (int i = 0; i < elements.size(); i++) {
      try {
        values.add(decode(elements.get(i), list.get(i), each, depth));
      } catch (IreeValueException e) {
        throw ValueChecks.atIndex(e, path, i);
      }
    }
    return Collections.unmodifiableList(values);
  }

  /** The number of children of an {@code sdict}, {@code slist} or {@code stuple}. */
  static int childCount(AbiType structure) {
    return structure instanceof AbiType.Dict dict
        ? dict.entries().size()
        : ((AbiType.Sequence) structure).elements().size();
  }

  private static Object decodeDynamic(Object element, String path, int depth) {
    if (depth > AbiValues.MAX_DEPTH) {
      throw AbiValues.tooDeep(Side.RESULT, path);
    }
    if (element instanceof VmValue vmValue) {
      return vmValue.boxed();
    }
    if (element instanceof BufferView view) {
      return view.elementType().isPresent() ? toArray(view) : view;
    }
    if (element instanceof VmList list) {
      List<Object> values = new ArrayList<>(list.size());
      String each = ValuePaths.each(path);
      for (int i = 0; i < list.size(); i++) {
        try {
          values.add(decodeDynamic(list.get(i), each, depth + 1));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return Collections.unmodifiableList(values);
    }
    return element; // null or another ref
  }

  /**
   * A scalar result as the box of the Java type {@link JavaMapping} gives it; integers of odd
   * widths ({@code i3}) in the narrowest integer type that holds them.
   */
  private static Object decodeScalar(ElementType type, Object element, String path) {
    Class<?> java = scalarClass(type);
    if (java == boolean.class) {
      return ValueChecks.integer(element, type, Side.RESULT, path) == 1;
    } else if (java == float.class) {
      return (float) ValueChecks.floating(element, type, Side.RESULT, path);
    } else if (java == double.class) {
      return ValueChecks.floating(element, type, Side.RESULT, path);
    } else if (java == null) {
      throw IreeValueException.of(
          Side.RESULT,
          path,
          "a scalar " + type + " has no VM value type; expected i1, i8..i64, f32 or f64");
    }
    long v = ValueChecks.integer(element, type, Side.RESULT, path);
    if (java == byte.class) {
      return (byte) v;
    } else if (java == short.class) {
      return (short) v;
    } else if (java == int.class) {
      return (int) v;
    }
    return v;
  }

  /**
   * The primitive {@link JavaMapping} gives a scalar result (for integers, the narrowest that holds
   * the width), or null; the common types answered without an {@code Optional}.
   */
  private static Class<?> scalarClass(ElementType type) {
    if (type.isInteger()) {
      int bits = type.bits();
      return bits <= 0 || bits > 64
          ? null
          : bits <= 8 ? byte.class : bits <= 16 ? short.class : bits <= 32 ? int.class : long.class;
    }
    if (type.equals(ElementType.F32)) {
      return float.class;
    }
    if (type.equals(ElementType.F64)) {
      return double.class;
    }
    return JavaMapping.scalar(type).orElse(null);
  }

  private static Object toArray(BufferView view) {
    try {
      return NdArray.fromBufferView(view);
    } catch (IllegalArgumentException e) {
      return view; // an element type no array class holds: the view itself
    }
  }

  /** A ref slot a list may fill: no reflection says its type ({@code r}), or it says a list. */
  private static boolean isListSlot(AbiType declared) {
    if (!(declared instanceof AbiType.Ref ref)) {
      return false;
    }
    String type = ref.refType();
    return type.equals(AbiType.Ref.ANY) || type.equals("vm.list") || type.equals("!vm.list");
  }
}
