package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One array class seen through the API every class shares ({@code zeros}, {@code of}, {@code wrap},
 * {@code get}/{@code set}, {@code toArray}...), called by reflection so one parameterised test
 * covers all thirteen. Test values come from small integer seeds: {@link #value(int)} gives a
 * seed's Java value (e.g. {@code 0.5f * seed} for {@code FloatArray}); distinct seeds give distinct
 * values except for {@link BoolArray}, which has only two.
 */
final class ArraySpec {

  final Class<? extends NdArray> type;
  final ElementType elementType;

  /** The Java type of one element as get/set/of see it, e.g. {@code float.class}. */
  final Class<?> valueType;

  private final IntFunction<Object> values;

  private ArraySpec(
      Class<? extends NdArray> type,
      ElementType elementType,
      Class<?> valueType,
      IntFunction<Object> values) {
    this.type = type;
    this.elementType = elementType;
    this.valueType = valueType;
    this.values = values;
  }

  static List<ArraySpec> all() {
    return List.of(
        new ArraySpec(FloatArray.class, ElementType.F32, float.class, s -> s * 0.5f - 7f),
        new ArraySpec(DoubleArray.class, ElementType.F64, double.class, s -> s * 0.25 - 1e9),
        // Exact in f16 and bf16 for the seeds the tests use (below 256).
        new ArraySpec(HalfArray.class, ElementType.F16, float.class, s -> s * 0.5f - 3f),
        new ArraySpec(BFloat16Array.class, ElementType.BF16, float.class, s -> (float) s - 3f),
        new ArraySpec(BoolArray.class, ElementType.I1, boolean.class, s -> s % 2 != 0),
        new ArraySpec(ByteArray.class, ElementType.I8, byte.class, s -> (byte) (s - 100)),
        new ArraySpec(
            ShortArray.class, ElementType.I16, short.class, s -> (short) (s * 300 - 20000)),
        new ArraySpec(IntArray.class, ElementType.I32, int.class, s -> s * 100_003 - 7_000_000),
        new ArraySpec(LongArray.class, ElementType.I64, long.class, s -> s * 10_000_000_019L - 3),
        // Unsigned: values beyond the signed range of the stored width.
        new ArraySpec(UByteArray.class, ElementType.UI8, int.class, s -> (s * 7 + 200) & 0xff),
        new ArraySpec(
            UShortArray.class, ElementType.UI16, int.class, s -> (s * 331 + 65000) & 0xffff),
        new ArraySpec(
            UIntArray.class,
            ElementType.UI32,
            long.class,
            s -> (s * 100_003L + 4_294_000_000L) & 0xffffffffL),
        new ArraySpec(ULongArray.class, ElementType.UI64, long.class, s -> -1L - s * 3L));
  }

  @Override
  public String toString() {
    return type.getSimpleName();
  }

  String name() {
    return type.getSimpleName();
  }

  int byteSize() {
    return elementType.byteSize();
  }

  /** The boxed Java value for {@code seed}. */
  Object value(int seed) {
    return values.apply(seed);
  }

  /** A primitive array ({@code float[]}...) of the values of {@code seeds}. */
  Object values(int... seeds) {
    Object out = Array.newInstance(valueType, seeds.length);
    for (int i = 0; i < seeds.length; i++) {
      Array.set(out, i, value(seeds[i]));
    }
    return out;
  }

  /** A nested primitive array of the values of a nested int array of seeds, any depth. */
  Object nestedValues(Object seeds) {
    if (seeds instanceof int[]) {
      return values((int[]) seeds);
    }
    if (seeds == null) {
      return null;
    }
    int n = Array.getLength(seeds);
    Class<?> component = nestedClass(depthOf(seeds) - 1);
    Object out = Array.newInstance(component, n);
    for (int i = 0; i < n; i++) {
      Array.set(out, i, nestedValues(Array.get(seeds, i)));
    }
    return out;
  }

  private static int depthOf(Object seeds) {
    int depth = 0;
    for (Class<?> c = seeds.getClass(); c.isArray(); c = c.getComponentType()) {
      depth++;
    }
    return depth;
  }

  /** {@code float[]} for depth 1, {@code float[][]} for 2, ... */
  Class<?> nestedClass(int depth) {
    return Array.newInstance(valueType, new int[depth]).getClass();
  }

  // --- Static factories.

  NdArray zeros(long... shape) {
    return (NdArray) invoke(null, "zeros", new Class<?>[] {long[].class}, (Object) shape);
  }

  NdArray of(int[] seeds, long... shape) {
    return (NdArray)
        invoke(null, "of", new Class<?>[] {nestedClass(1), long[].class}, values(seeds), shape);
  }

  /** {@code of(P[][])}, {@code of(P[][][])} or {@code of(P[][][][])}, by the depth of seeds. */
  NdArray ofNested(Object seeds) {
    return ofNestedValues(nestedValues(seeds), depthOf(seeds));
  }

  /** The nested {@code of} factory of {@code depth} on already-typed values. */
  NdArray ofNestedValues(Object values, int depth) {
    return (NdArray) invoke(null, "of", new Class<?>[] {nestedClass(depth)}, values);
  }

  NdArray scalar(int seed) {
    return (NdArray) invoke(null, "scalar", new Class<?>[] {valueType}, value(seed));
  }

  NdArray wrap(ByteBuffer buffer, long... shape) {
    return (NdArray)
        invoke(null, "wrap", new Class<?>[] {ByteBuffer.class, long[].class}, buffer, shape);
  }

  NdArray fromBufferView(BufferView view) {
    return (NdArray) invoke(null, "fromBufferView", new Class<?>[] {BufferView.class}, view);
  }

  // --- Instance methods.

  Object get(NdArray array, long... index) {
    return invoke(array, "get", new Class<?>[] {long[].class}, (Object) index);
  }

  void set(NdArray array, int seed, long... index) {
    invoke(array, "set", new Class<?>[] {valueType, long[].class}, value(seed), index);
  }

  Object getFlat(NdArray array, long flat) {
    return invoke(array, "getFlat", new Class<?>[] {long.class}, flat);
  }

  void setFlat(NdArray array, int seed, long flat) {
    invoke(array, "setFlat", new Class<?>[] {valueType, long.class}, value(seed), flat);
  }

  void fill(NdArray array, int seed) {
    invoke(array, "fill", new Class<?>[] {valueType}, value(seed));
  }

  Object toArray(NdArray array) {
    return invoke(array, "toArray", new Class<?>[0]);
  }

  /** {@code toArray2D()}, {@code toArray3D()} or {@code toArray4D()}. */
  Object toArrayND(NdArray array, int rank) {
    return invoke(array, "toArray" + rank + "D", new Class<?>[0]);
  }

  /** {@code copyFrom(P[])} ... {@code copyFrom(P[][][][])}, by the class of {@code values}. */
  NdArray copyFrom(NdArray array, Object values) {
    return (NdArray) invoke(array, "copyFrom", new Class<?>[] {values.getClass()}, values);
  }

  /** {@code copyInto(P[])} ... {@code copyInto(P[][][][])}, by the class of {@code out}. */
  Object copyInto(NdArray array, Object out) {
    return invoke(array, "copyInto", new Class<?>[] {out.getClass()}, out);
  }

  /** Calls a public method, rethrowing what it throws as itself. */
  private Object invoke(Object target, String name, Class<?>[] parameters, Object... args) {
    Method method;
    try {
      method = type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(type.getSimpleName() + " lacks the shared method " + name, e);
    }
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new AssertionError(cause);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
