package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Copies into and out of existing memory ({@code copyFrom}, {@code copyInto}) and the lifetime of
 * an array's memory ({@code close}), for every one of the thirteen array classes.
 */
class CopyAndCloseTest {

  static List<ArraySpec> specs() {
    return ArraySpec.all();
  }

  /** Seeds 1, 2, ... cycling below 200 (where every class's values are exact and distinct). */
  private static int[] seeds(int n) {
    int[] s = new int[n];
    for (int i = 0; i < n; i++) {
      s[i] = i % 199 + 1;
    }
    return s;
  }

  /** A nested int array of seeds of {@code dims}, filled in row-major order. */
  private static Object nestedSeeds(int... dims) {
    Object out = java.lang.reflect.Array.newInstance(int.class, dims);
    int[] next = {0};
    fill(out, next);
    return out;
  }

  private static void fill(Object level, int[] next) {
    if (level instanceof int[]) {
      int[] row = (int[]) level;
      for (int i = 0; i < row.length; i++) {
        row[i] = next[0]++ % 199 + 1;
      }
      return;
    }
    for (Object part : (Object[]) level) {
      fill(part, next);
    }
  }

  private static long[] longs(int... dims) {
    long[] out = new long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      out[i] = dims[i];
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // copyFrom / copyInto

  @ParameterizedTest
  @MethodSource("specs")
  void copyFromFlatOverwritesEveryElementAndReturnsTheArray(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    assertThat(spec.copyFrom(a, spec.values(seeds(6)))).isSameInstanceAs(a);
    assertThat(a).isEqualTo(spec.of(seeds(6), 2, 3));
    // Again, with other values: the same memory takes frame after frame.
    int[] other = {9, 8, 7, 6, 5, 4};
    spec.copyFrom(a, spec.values(other));
    assertThat(spec.toArray(a)).isEqualTo(spec.values(other));
  }

  /**
   * Shapes whose innermost rows are short (gathered through the staging array, more rows than it
   * holds at once, so it is flushed several times) and long (copied row by row), at ranks 2 to 4.
   */
  static List<int[]> nestedShapes() {
    return List.of(
        new int[] {2, 3},
        new int[] {5000, 3},
        new int[] {3, 700, 3},
        new int[] {1, 50, 50, 3},
        new int[] {2, 2, 100},
        new int[] {2, 3, 1, 4},
        new int[] {2, 0, 3},
        new int[] {1, 1, 4100});
  }

  @ParameterizedTest
  @MethodSource("specs")
  void copyFromAndCopyIntoNestedArraysMatchTheFlatOrder(ArraySpec spec) {
    for (int[] dims : nestedShapes()) {
      int n = 1;
      for (int d : dims) {
        n *= d;
      }
      Object seeds = nestedSeeds(dims);
      Object values = spec.nestedValues(seeds);
      NdArray expected = spec.of(seeds(n), longs(dims));

      NdArray a = spec.zeros(longs(dims));
      assertThat(spec.copyFrom(a, values)).isSameInstanceAs(a);
      assertThat(a).isEqualTo(expected);
      // The factory goes the same way. (A Java array has no rows below an empty level to measure,
      // so of(new P[2][0][3]) has shape 2x0x0; copyFrom accepts it for a 2x0x3 array.)
      if (n > 0) {
        assertThat(spec.ofNested(seeds)).isEqualTo(expected);
      }

      Object out = java.lang.reflect.Array.newInstance(spec.valueType, dims);
      assertThat(spec.copyInto(expected, out)).isSameInstanceAs(out);
      assertThat(out).isEqualTo(values);
      assertThat(spec.toArrayND(expected, dims.length)).isEqualTo(values);

      Object flat = java.lang.reflect.Array.newInstance(spec.valueType, n);
      assertThat(spec.copyInto(expected, flat)).isSameInstanceAs(flat);
      assertThat(flat).isEqualTo(spec.values(seeds(n)));
    }
  }

  @ParameterizedTest
  @MethodSource("specs")
  void copyFromAndCopyIntoRejectOtherSizesAndShapesNamingBoth(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    String name = spec.name();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> spec.copyFrom(a, spec.values(seeds(5))));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            name
                + ".copyFrom: the Java array has 5 elements but "
                + name
                + " of shape 2x3 has 6; the sizes must be equal");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.copyInto(a, java.lang.reflect.Array.newInstance(spec.valueType, 7)));
    assertThat(e).hasMessageThat().startsWith(name + ".copyInto: the Java array has 7 elements");

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.copyFrom(a, spec.nestedValues(nestedSeeds(3, 2))));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            name
                + ".copyFrom: data has shape 3x2 but this is "
                + name
                + " of shape 2x3; the shapes must be equal (reshape the array, or copy through a"
                + " flat Java array)");
    // Another rank is another shape.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.copyFrom(a, spec.nestedValues(nestedSeeds(1, 2, 3))));
    assertThat(e).hasMessageThat().contains("data has shape 1x2x3 but this is " + name);
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.copyInto(a, java.lang.reflect.Array.newInstance(spec.valueType, 2, 4)));
    assertThat(e).hasMessageThat().contains(name + ".copyInto: out has shape 2x4 but this is");

    // Ragged and null rows are named, as by of(...).
    int[][] ragged = {{1, 2, 3}, {4, 5}};
    e =
        assertThrows(
            IllegalArgumentException.class, () -> spec.copyFrom(a, spec.nestedValues(ragged)));
    assertThat(e)
        .hasMessageThat()
        .contains(name + ".copyFrom: the data is ragged: data[1] has length 2 but data[0]");
    Object withNull = spec.nestedValues(nestedSeeds(2, 3));
    ((Object[]) withNull)[1] = null;
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> spec.copyFrom(a, withNull));
    assertThat(npe).hasMessageThat().isEqualTo(name + ".copyFrom: data[1] is null");
    // Nothing was written by the failed copies.
    assertThat(a).isEqualTo(spec.zeros(2, 3));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void copyFromARedOnlyArrayThrows(ArraySpec spec) {
    ByteBuffer bytes =
        ByteBuffer.allocateDirect(6 * spec.byteSize()).order(ByteOrder.nativeOrder());
    NdArray readOnly = spec.wrap(bytes.asReadOnlyBuffer().order(ByteOrder.nativeOrder()), 2, 3);
    assertThrows(
        java.nio.ReadOnlyBufferException.class,
        () -> spec.copyFrom(readOnly, spec.values(seeds(6))));
  }

  @Test
  void uncheckedValuesAreRejectedByCopyFromNamingTheIndex() {
    UByteArray a = UByteArray.zeros(2, 2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> a.copyFrom(new int[][] {{1, 2}, {3, 256}}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "UByteArray.copyFrom: value 256 at index [1, 1] is out of range for ui8 (0..255)");
  }

  @Test
  void halfFloatsAreRoundedByCopyFromAsBySet() {
    HalfArray a = HalfArray.zeros(2);
    a.copyFrom(new float[] {1.0f / 3, 65520f});
    HalfArray b = HalfArray.zeros(2);
    b.setFlat(1.0f / 3, 0);
    b.setFlat(65520f, 1);
    assertThat(a).isEqualTo(b);
  }

  @Test
  void copyFromAndCopyIntoTypedBuffersLeaveTheirPositionsAlone() {
    FloatBuffer src = FloatBuffer.wrap(new float[] {9, 9, 1, 2, 3, 4, 5, 6});
    src.position(2);
    FloatArray a = FloatArray.zeros(2, 3);
    assertThat(a.copyFrom(src)).isSameInstanceAs(a);
    assertThat(src.position()).isEqualTo(2);
    assertThat(a.toArray()).isEqualTo(new float[] {1, 2, 3, 4, 5, 6});

    // A big-endian view of bytes is read by value, not by bytes.
    ByteBuffer big = ByteBuffer.allocateDirect(24).order(ByteOrder.BIG_ENDIAN);
    big.asFloatBuffer().put(new float[] {6, 5, 4, 3, 2, 1});
    a.copyFrom(big.asFloatBuffer());
    assertThat(a.toArray()).isEqualTo(new float[] {6, 5, 4, 3, 2, 1});

    FloatBuffer dst = FloatBuffer.allocate(7);
    dst.position(1);
    assertThat(a.copyInto(dst)).isSameInstanceAs(dst);
    assertThat(dst.position()).isEqualTo(1);
    assertThat(dst.array()).isEqualTo(new float[] {0, 6, 5, 4, 3, 2, 1});

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> a.copyFrom(FloatBuffer.allocate(5)));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "FloatArray.copyFrom: the buffer has 5 elements remaining but FloatArray of shape 2x3"
                + " has 6; the sizes must be equal");
    assertThrows(IllegalArgumentException.class, () -> a.copyInto(FloatBuffer.allocate(7)));
    assertThrows(
        java.nio.ReadOnlyBufferException.class,
        () -> a.copyInto(FloatBuffer.allocate(6).asReadOnlyBuffer()));
    // Copying through a typed buffer hands nothing out: close() still frees at once.
    assertThat(a.memory.freesOnClose()).isTrue();
    a.close();
    assertThrows(IllegalStateException.class, () -> a.copyFrom(FloatBuffer.allocate(6)));
    assertThrows(IllegalStateException.class, () -> a.copyInto(FloatBuffer.allocate(6)));

    IntArray ints = IntArray.zeros(3).copyFrom(IntBuffer.wrap(new int[] {7, 8, 9}));
    assertThat(ints.copyInto(IntBuffer.allocate(3)).array()).isEqualTo(new int[] {7, 8, 9});
    ULongArray ulongs = ULongArray.zeros(2).copyFrom(LongBuffer.wrap(new long[] {-1L, 3L}));
    assertThat(ulongs.getString(0)).isEqualTo("18446744073709551615");
    assertThat(DoubleArray.zeros(1).copyFrom(DoubleBuffer.wrap(new double[] {2.5})).getFlat(0))
        .isEqualTo(2.5);
    assertThat(ShortArray.zeros(1).copyFrom(ShortBuffer.wrap(new short[] {-4})).getFlat(0))
        .isEqualTo((short) -4);
  }

  @Test
  void copiesOutOfOneArrayMayRunInSeveralThreadsAtOnce() throws Exception {
    // Short rows go through a staging array the array keeps; concurrent readers must not share it.
    float[] flat = new float[3000 * 3];
    for (int i = 0; i < flat.length; i++) {
      flat[i] = i;
    }
    FloatArray a = FloatArray.of(flat, 3000, 3);
    float[][] expected = a.toArray2D();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(
            pool.submit(
                () -> {
                  float[][] out = new float[3000][3];
                  for (int i = 0; i < 300; i++) {
                    a.copyInto(out);
                    if (!java.util.Arrays.deepEquals(out, expected)) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (java.util.concurrent.Future<Boolean> r : results) {
        assertThat(r.get()).isTrue();
      }
    } finally {
      pool.shutdown();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // close

  @ParameterizedTest
  @MethodSource("specs")
  void aClosedArrayAndItsViewsFailClearlyOnUse(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    NdArray row = a.select(1);
    assertThat(a.isClosed()).isFalse();
    a.close();
    assertThat(a.isClosed()).isTrue();
    assertThat(row.isClosed()).isTrue();
    a.close(); // twice: nothing happens

    String name = spec.name();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> spec.get(a, 0, 0));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            name
                + " of shape 2x3 is closed: close() on it ended the use of its memory; make a new"
                + " array, or close it only when done");
    e = assertThrows(IllegalStateException.class, () -> spec.getFlat(row, 0));
    assertThat(e)
        .hasMessageThat()
        .startsWith(name + " of shape 3 is closed: close() on the array it is a view of");
    assertThrows(IllegalStateException.class, () -> spec.set(a, 1, 0, 0));
    assertThrows(IllegalStateException.class, () -> spec.setFlat(a, 1, 0));
    assertThrows(IllegalStateException.class, () -> spec.fill(a, 1));
    assertThrows(IllegalStateException.class, () -> spec.toArray(a));
    assertThrows(IllegalStateException.class, () -> spec.toArrayND(a, 2));
    assertThrows(IllegalStateException.class, () -> spec.copyFrom(a, spec.values(seeds(6))));
    assertThrows(
        IllegalStateException.class,
        () -> spec.copyInto(a, java.lang.reflect.Array.newInstance(spec.valueType, 6)));
    assertThrows(IllegalStateException.class, a::data);
    assertThrows(IllegalStateException.class, a::asBufferView);
    assertThrows(IllegalStateException.class, a::copy);
    assertThrows(IllegalStateException.class, () -> a.reshape(3, 2));
    assertThrows(IllegalStateException.class, () -> a.slice(0, 1));
    assertThrows(IllegalStateException.class, () -> a.select(0));
    assertThrows(IllegalStateException.class, a::hashCode);
    assertThrows(IllegalStateException.class, () -> a.equals(spec.of(seeds(6), 2, 3)));
    assertThat(a.equals(a)).isTrue();
    // Printing still works, and says so.
    assertThat(a.toString()).isEqualTo(name + "<2x3x" + spec.elementType + "> (closed)");
    // The shape and type stay readable: they are not in the memory.
    assertThat(a.shape()).isEqualTo(new long[] {2, 3});
    assertThat(a.elementType()).isEqualTo(spec.elementType);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void closingAViewDoesNothing(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    NdArray view = a.reshape(3, 2);
    view.close();
    assertThat(view.isClosed()).isFalse();
    assertThat(a.isClosed()).isFalse();
    assertThat(spec.toArray(view)).isEqualTo(spec.values(seeds(6)));
    a.close();
    assertThat(view.isClosed()).isTrue();
  }

  @ParameterizedTest
  @MethodSource("specs")
  void closingAWrappedArrayLeavesTheCallersBufferAlone(ArraySpec spec) {
    NdArray source = spec.of(seeds(6), 6);
    ByteBuffer bytes =
        ByteBuffer.allocateDirect(source.byteLength()).order(ByteOrder.nativeOrder());
    bytes.duplicate().put(source.data());
    NdArray wrapped = spec.wrap(bytes, 6);
    assertThat(wrapped.memory.freesOnClose()).isFalse();
    wrapped.close();
    assertThat(wrapped.isClosed()).isTrue();
    // The caller's memory is still there, unchanged: wrapping it again reads the same values.
    assertThat(spec.toArray(spec.wrap(bytes, 6))).isEqualTo(spec.values(seeds(6)));
    NdArray viewOfIt = spec.fromBufferView(source.asBufferView());
    assertThat(viewOfIt.memory.freesOnClose()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ownMemoryIsFreedOnCloseUnlessABufferOverItWasHandedOut(ArraySpec spec) {
    NdArray kept = spec.of(seeds(6), 2, 3);
    assertThat(kept.memory.freesOnClose()).isTrue(); // invokeCleaner is there on JDK 17 and 25
    assertThat(kept.copy().memory.freesOnClose()).isTrue();
    assertThat(spec.zeros(4).memory.freesOnClose()).isTrue();

    NdArray viaData = spec.of(seeds(6), 2, 3);
    ByteBuffer escaped = viaData.select(0).data(); // through a view: the memory is shared
    assertThat(viaData.memory.freesOnClose()).isFalse();
    viaData.close();
    // The buffer handed out still reads the array's bytes: the memory was not freed under it.
    assertThat(spec.toArray(spec.wrap(escaped, 3))).isEqualTo(spec.values(1, 2, 3));

    NdArray viaView = spec.of(seeds(6), 2, 3);
    dev.ireestubs.vm.BufferView lent = viaView.asBufferView();
    assertThat(viaView.memory.freesOnClose()).isTrue(); // lent, not handed out: readers pin it
    lent.data(); // the view's raw bytes, handed out with no end
    assertThat(viaView.memory.freesOnClose()).isFalse();
  }

  @Test
  void typedBufferViewsCountAsHandedOut() {
    FloatArray a = FloatArray.zeros(4);
    a.asFloatBuffer().put(0, 2f);
    assertThat(a.memory.freesOnClose()).isFalse();
    assertThat(a.getFlat(0)).isEqualTo(2f);
  }

  @Test
  void closingManyArraysInALoopFreesThemWithoutAGarbageCollection() {
    // 4,000 arrays of 1 MiB: 4 GiB if nothing were freed before a GC.
    float[] frame = new float[1 << 18];
    if (Memory.fromArenas()) {
      // JDK 22+: arena memory is not in the JVM's direct-buffer accounting, but a closed arena's
      // buffers fail on use (the memory is released), which the array's own buffer shows.
      for (int i = 0; i < 4000; i++) {
        FloatArray a = FloatArray.of(frame);
        ByteBuffer own = a.data; // the array's field: not handed out, so close() frees
        a.close();
        assertThrows(IllegalStateException.class, () -> own.get(0));
      }
      return;
    }
    // JDK 17 to 21: the loop runs in the little direct memory one array needs (the JVM's
    // direct-memory accounting shows it).
    java.lang.management.BufferPoolMXBean direct =
        java.lang.management.ManagementFactory.getPlatformMXBeans(
                java.lang.management.BufferPoolMXBean.class)
            .stream()
            .filter(b -> b.getName().equals("direct"))
            .findFirst()
            .orElseThrow();
    long before = direct.getMemoryUsed();
    long most = 0;
    for (int i = 0; i < 4000; i++) {
      try (FloatArray a = FloatArray.of(frame)) {
        most = Math.max(most, direct.getMemoryUsed() - before);
        assertThat(a.size()).isEqualTo(1 << 18);
      }
    }
    // Other tests in this JVM may allocate meanwhile; allow them 64 MiB.
    assertThat(most).isLessThan(64L << 20);
  }

  @Test
  void escapedArenaMemoryStaysReadableAfterClose() {
    FloatArray a = FloatArray.of(new float[] {1, 2, 3});
    ByteBuffer escaped = a.data();
    a.close();
    // Not freed under the buffer handed out (on any JDK): it still reads the array's bytes.
    assertThat(escaped.order(ByteOrder.nativeOrder()).getFloat(8)).isEqualTo(3f);
  }
}
