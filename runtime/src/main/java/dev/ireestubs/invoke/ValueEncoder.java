package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Encoding, Java to VM: the VM list element (a {@link VmValue} or a {@link VmRef}) for a Java value
 * by the type its signature declares (the forms {@link AbiValues} tabulates), checked on the way
 * with {@link ValueChecks}: scalars by their range, n-d arrays (or Java arrays, copied) by element
 * type and shape, an {@code sdict} from a map or a record ({@link RecordComponents}), a sequence
 * from a list or a record, and a {@code null} type by the value's own Java type, as IREE's Python
 * invoker does. The same rules for an argument and for a result a host function returns; only the
 * {@link Side} of a failure and what becomes of a Java array's copy differ.
 */
final class ValueEncoder {

  private ValueEncoder() {}

  /**
   * {@link AbiValues#encode} or {@link AbiValues#encodeResult} (by {@code side}) at {@code depth}
   * levels of nesting; {@code path} null: no paths.
   */
  static Object encode(AbiType declared, Object value, String path, int depth, Side side) {
    if (depth > AbiValues.MAX_DEPTH) {
      throw AbiValues.tooDeep(side, path);
    }
    if (declared instanceof AbiType.Named named) {
      return encode(named.type(), value, path, depth, side);
    }
    if (declared instanceof AbiType.Any) {
      return encodeDynamic(value, path, depth, side);
    }
    if (declared instanceof AbiType.Unsupported unsupported) {
      throw VmElementChecks.unsupported(unsupported, side, path);
    }
    ValueChecks.notNull(value, declared, side, path);
    if (declared instanceof AbiType.Scalar scalar) {
      return encodeScalar(scalar.element(), value, path, side);
    }
    if (declared instanceof AbiType.NdArray type) {
      if (value instanceof NdArray ndArray) {
        return ValueChecks.array(ndArray, type, side, path);
      }
      if (value instanceof BufferView) {
        return ValueChecks.bufferView(value, type, side, path);
      }
      if (JavaArrays.isSupported(value)) {
        return javaArrayCopy(
            ValueChecks.copy(value, JavaArrays::copyOf, type, side, path), type, side, path);
      }
      throw mismatch(declared, value, "an NdArray, a BufferView or a Java array", side, path);
    }
    if (declared instanceof AbiType.Dict dict) {
      return encodeDict(dict, value, path, depth, side);
    }
    if (declared instanceof AbiType.Sequence sequence) {
      return encodeSequence(sequence, value, path, depth, side);
    }
    if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      return encodeList(homogeneousList, value, path, depth, side);
    }
    return encodeRef(declared, value, path, depth, side);
  }

  /** An {@code slist} or {@code stuple}: a {@code List}, an {@code Object[]} or a record. */
  private static VmList encodeSequence(
      AbiType.Sequence declared, Object value, String path, int depth, Side side) {
    List<AbiType> elements = declared.elements();
    List<?> values = positionalValues(declared, value, path, side);
    VmList list = ValueChecks.sequence(values, declared, elements.size(), side, path);
    String each = ValuePaths.each(path);
    for (int i = 0; i < elements.size(); i++) {
      try {
        list.push(encode(elements.get(i), values.get(i), each, depth + 1, side));
      } catch (IreeValueException e) {
        throw ValueChecks.atIndex(e, path, i);
      }
    }
    return list;
  }

  /** A {@code py_homogeneous_list}: a {@code List} of any size. */
  private static VmList encodeList(
      AbiType.HomogeneousList declared, Object value, String path, int depth, Side side) {
    if (!(value instanceof List)) {
      throw mismatch(declared, value, "a List", side, path);
    }
    List<?> values = (List<?>) value;
    AbiType element = declared.element();
    VmList list = VmList.variant(values.size());
    String each = ValuePaths.each(path);
    for (int i = 0; i < values.size(); i++) {
      try {
        list.push(encode(element, values.get(i), each, depth + 1, side));
      } catch (IreeValueException e) {
        throw ValueChecks.atIndex(e, path, i);
      }
    }
    return list;
  }

  /**
   * A ref slot ({@code r} in the calling convention, {@code !vm.list}, {@code unknown}): a {@link
   * VmRef} as it is; and, as IREE's Python invoker does for a function with no reflection, what a
   * variant list holds: a {@code List} (nested to any depth) as a list, a {@code Map} as the list
   * of its values in sorted key order, an array as a buffer view; then checked against the ref type
   * the slot names, if any.
   */
  private static Object encodeRef(
      AbiType declared, Object value, String path, int depth, Side side) {
    Object ref = value;
    if (!(value instanceof VmRef)) {
      boolean convertible =
          value instanceof List
              || value instanceof Map
              || value instanceof NdArray
              || JavaArrays.isSupported(value);
      if (!convertible) {
        throw mismatch(declared, value, "a VmRef, a List, a Map or an array", side, path);
      }
      ref = encodeDynamic(value, path, depth, side);
    }
    VmElementChecks.checkRefType(declared, (VmRef) ref, side, path);
    return ref;
  }

  /** The VM value of an {@code i1}: the i32 1 or 0. */
  private static VmValue i1(boolean value) {
    return VmValue.i32(value ? 1 : 0);
  }

  private static VmValue encodeScalar(ElementType element, Object value, String path, Side side) {
    if (element.kind() == ElementType.Kind.BOOLEAN) {
      if (!(value instanceof Boolean b)) {
        throw mismatch(new AbiType.Scalar(element), value, "a Boolean", side, path);
      }
      return i1(b);
    }
    if (element.isInteger() && element.bits() <= 64) {
      if (!(value instanceof Byte
          || value instanceof Short
          || value instanceof Integer
          || value instanceof Long)) {
        throw mismatch(new AbiType.Scalar(element), value, "an integral Number", side, path);
      }
      long v = ((Number) value).longValue();
      int bits = element.bits();
      if (bits < 64 && !ValueChecks.fits(v, element)) {
        throw IreeValueException.of(
            side,
            path,
            "expected an " + element + " but " + v + " does not fit in " + bits + " bits");
      }
      return bits <= 8
          ? VmValue.i8((byte) v)
          : bits <= 16
              ? VmValue.i16((short) v)
              : bits <= 32 ? VmValue.i32((int) v) : VmValue.i64(v);
    }
    if (element.equals(ElementType.F32) || element.equals(ElementType.F64)) {
      if (!(value instanceof Number number)) {
        throw mismatch(new AbiType.Scalar(element), value, "a Number", side, path);
      }
      double d = number.doubleValue();
      return element.equals(ElementType.F32) ? VmValue.f32((float) d) : VmValue.f64(d);
    }
    throw IreeValueException.of(
        side,
        path,
        "a scalar "
            + element
            + " has no VM value type; IREE passes i1, i8..i64, f32 and f64 scalars only");
  }

  private static VmList encodeDict(
      AbiType.Dict declared, Object value, String path, int depth, Side side) {
    List<AbiType.Entry> entries = declared.entries();
    VmList list = VmList.variant(entries.size());
    if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      if (!hasExactly(map, entries)) { // keys listed only for the message
        String problem = ValueChecks.keysProblem(map, declared.keys());
        if (problem != null) {
          throw IreeValueException.of(side, path, problem);
        }
      }
      for (AbiType.Entry e : entries) {
        list.push(
            encode(e.type(), map.get(e.key()), ValuePaths.member(path, e.key()), depth + 1, side));
      }
      return list;
    }
    if (value instanceof Record record) {
      Map<String, Object> components = RecordComponents.of(record, path, side);
      for (AbiType.Entry e : entries) {
        String component = RecordComponents.match(components, e.key());
        if (component == null) {
          throw IreeValueException.of(
              side,
              path,
              "record "
                  + JavaMapping.typeName(value)
                  + " has no component for key '"
                  + e.key()
                  + "' (components: "
                  + components.keySet()
                  + ")");
        }
      }
      if (components.size() != entries.size()) {
        throw IreeValueException.of(
            side,
            path,
            "record "
                + JavaMapping.typeName(value)
                + " has components "
                + components.keySet()
                + " but the sdict has exactly the keys "
                + declared.keys());
      }
      for (AbiType.Entry e : entries) {
        Object component = components.get(RecordComponents.match(components, e.key()));
        list.push(encode(e.type(), component, ValuePaths.member(path, e.key()), depth + 1, side));
      }
      return list;
    }
    throw mismatch(declared, value, "a Map<String, ?> or a record", side, path);
  }

  /** True when {@code map}'s keys are exactly those of {@code entries} (keysProblem is null). */
  private static boolean hasExactly(Map<?, ?> map, List<AbiType.Entry> entries) {
    if (map.size() != entries.size()) {
      return false;
    }
    for (int i = 0; i < entries.size(); i++) {
      if (!map.containsKey(entries.get(i).key())) {
        return false;
      }
    }
    return true;
  }

  private static List<?> positionalValues(AbiType declared, Object value, String path, Side side) {
    if (value instanceof List) {
      return (List<?>) value;
    }
    if (value instanceof Object[] array) {
      return java.util.Arrays.asList(array);
    }
    if (value instanceof Record record) {
      return new ArrayList<>(RecordComponents.of(record, path, side).values());
    }
    throw mismatch(declared, value, "a List or a record", side, path);
  }

  /** Java values by their own type, for a {@code null} (any) descriptor. */
  private static Object encodeDynamic(Object value, String path, int depth, Side side) {
    if (depth > AbiValues.MAX_DEPTH) {
      throw AbiValues.tooDeep(side, path);
    }
    if (value == null || value instanceof VmRef || value instanceof VmValue) {
      return value;
    }
    if (value instanceof Boolean b) {
      return i1(b);
    } else if (value instanceof Byte b) {
      return VmValue.i8(b);
    } else if (value instanceof Short s) {
      return VmValue.i16(s);
    } else if (value instanceof Integer i) {
      return VmValue.i32(i);
    } else if (value instanceof Long l) {
      return VmValue.i64(l);
    } else if (value instanceof Float f) {
      return VmValue.f32(f);
    } else if (value instanceof Double d) {
      return VmValue.f64(d);
    } else if (value instanceof NdArray ndArray) {
      return ndArray.asBufferView();
    } else if (JavaArrays.isSupported(value)) {
      AbiType.NdArray any = AbiType.NdArray.anyBufferView();
      return javaArrayCopy(
          ValueChecks.copy(value, JavaArrays::copyOf, any, side, path), any, side, path);
    } else if (value instanceof List) {
      List<?> values = (List<?>) value;
      VmList list = VmList.variant(values.size());
      String each = ValuePaths.each(path);
      for (int i = 0; i < values.size(); i++) {
        try {
          list.push(encodeDynamic(values.get(i), each, depth + 1, side));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return list;
    } else if (value instanceof Map) {
      // As IREE's dynamic mode: the values in sorted key order.
      Map<String, Object> sorted = new TreeMap<>(AbiType.Dict::compareBytewise);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw IreeValueException.of(side, path, "map keys must be strings, got " + e.getKey());
        }
        sorted.put((String) e.getKey(), e.getValue());
      }
      VmList list = VmList.variant(sorted.size());
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        list.push(
            encodeDynamic(e.getValue(), ValuePaths.member(path, e.getKey()), depth + 1, side));
      }
      return list;
    }
    throw IreeValueException.of(
        side, path, "cannot pass " + JavaMapping.aTypeName(value) + " to the VM");
  }

  private static IreeValueException mismatch(
      AbiType declared, Object value, String accepted, Side side, String path) {
    return IreeValueException.of(
        side,
        path,
        "expected "
            + declared
            + " ("
            + accepted
            + ") but got "
            + JavaMapping.typeName(Objects.requireNonNull(value))
            + (value instanceof NdArray ? " " + value : ""));
  }

  /**
   * The view of {@code copy}, a Java array's copy made for this value, after checking it against
   * {@code declared}: an argument's copy is owned by the call ({@link NdArray#asCallArgument()}),
   * freed when the caller ends the call ({@link VmList#endCall()}, which {@link DynamicFunction}'s
   * calls do after decoding) unless the backend still pins it; a result's copy is handed over to
   * the result list's readers ({@link NdArray#handOver()}). A copy that does not fit is closed
   * before the failure is thrown.
   */
  private static BufferView javaArrayCopy(
      NdArray copy, AbiType.NdArray declared, Side side, String path) {
    BufferView view = side == Side.ARGUMENT ? copy.asCallArgument() : copy.asBufferView();
    if (!ValueChecks.fits(declared, view)) {
      try {
        ValueChecks.array(copy, declared, side, path); // throws the message for the mismatch
      } catch (RuntimeException | Error e) {
        copy.close();
        throw e;
      }
    }
    if (side == Side.RESULT) {
      copy.handOver(); // the result list's, as a returned array's memory is (packResults)
    }
    return view;
  }
}
