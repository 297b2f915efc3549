package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every one of the thirteen array classes shares, run against each of them. */
class AllArraysTest {

  static List<ArraySpec> specs() {
    return ArraySpec.all();
  }

  private static int[] seeds(int n) {
    int[] s = new int[n];
    for (int i = 0; i < n; i++) {
      s[i] = i + 1;
    }
    return s;
  }

  /** A direct, native-order buffer of {@code bytes} bytes. */
  private static ByteBuffer direct(int bytes) {
    return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
  }

  // ---------------------------------------------------------------------------------------------
  // Type, shape, memory

  @ParameterizedTest
  @MethodSource("specs")
  void coversEveryPermittedSubclass(ArraySpec spec) {
    assertThat(NdArray.class.getPermittedSubclasses()).asList().contains(spec.type);
    assertThat(NdArray.class.getPermittedSubclasses()).hasLength(13);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void zerosHasTheShapeTypeAndZeroedBytes(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    assertThat(a).isInstanceOf(spec.type);
    assertThat(a.elementType()).isEqualTo(spec.elementType);
    assertThat(a.halElementType()).isEqualTo(spec.elementType.halCode().get());
    assertThat(a.shape()).isEqualTo(new long[] {2, 3});
    assertThat(a.rank()).isEqualTo(2);
    assertThat(a.dim(0)).isEqualTo(2);
    assertThat(a.dim(1)).isEqualTo(3);
    assertThat(a.size()).isEqualTo(6);
    assertThat(a.byteLength()).isEqualTo(6 * spec.byteSize());
    assertThat(a.isReadOnly()).isFalse();
    assertThat(NativeMemory.bytes(a.data())).isEqualTo(new byte[6 * spec.byteSize()]);
    // shape() is a copy.
    a.shape()[0] = 99;
    assertThat(a.dim(0)).isEqualTo(2);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void dimRejectsAxesOutOfRange(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.dim(2));
    assertThat(e).hasMessageThat().contains("axis 2 is out of bounds");
    assertThat(e).hasMessageThat().contains("of rank 2");
    assertThrows(IndexOutOfBoundsException.class, () -> a.dim(-1));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void memoryIsDirectNativeOrderAnd64ByteAligned(ArraySpec spec) {
    for (int n = 0; n <= 70; n++) {
      NdArray[] arrays = {spec.zeros(n), spec.of(seeds(n)), spec.zeros(n).copy()};
      for (NdArray a : arrays) {
        ByteBuffer data = a.data();
        assertThat(data.isDirect()).isTrue();
        assertThat(data.order()).isEqualTo(ByteOrder.nativeOrder());
        assertThat(data.position()).isEqualTo(0);
        assertThat(data.capacity()).isEqualTo(n * spec.byteSize());
        assertWithMessage("address of %s elements", n)
            .that(NativeMemory.address(data) % 64)
            .isEqualTo(0);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Factories from Java arrays

  @ParameterizedTest
  @MethodSource("specs")
  void ofCopiesAFlatArrayInRowMajorOrder(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    assertThat(a.shape()).isEqualTo(new long[] {2, 3});
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(spec.get(a, i, j)).isEqualTo(spec.value(1 + 3 * i + j));
        assertThat(spec.getFlat(a, 3 * i + j)).isEqualTo(spec.value(1 + 3 * i + j));
      }
    }
    assertThat(spec.toArray(a)).isEqualTo(spec.values(seeds(6)));
    // With no shape: rank 1.
    NdArray flat = spec.of(seeds(5));
    assertThat(flat.shape()).isEqualTo(new long[] {5});
    assertThat(spec.toArray(flat)).isEqualTo(spec.values(seeds(5)));
    // Empty.
    assertThat(spec.of(new int[0]).shape()).isEqualTo(new long[] {0});
    assertThat(spec.of(new int[0], 3, 0, 2).shape()).isEqualTo(new long[] {3, 0, 2});
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofCopiesSoLaterChangesToTheSourceDoNotShow(ArraySpec spec) {
    Object source = spec.values(1, 2, 3);
    NdArray a = (NdArray) invokeOf(spec, source);
    Array.set(source, 0, spec.value(9));
    assertThat(spec.get(a, 0)).isEqualTo(spec.value(1));
  }

  /** {@code of(source)} on the very array given (ArraySpec.of builds a fresh one). */
  private static Object invokeOf(ArraySpec spec, Object source) {
    try {
      return spec.type
          .getMethod("of", source.getClass(), long[].class)
          .invoke(null, source, new long[0]);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofRejectsAShapeThatDoesNotHoldTheData(ArraySpec spec) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> spec.of(seeds(6), 4));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(spec.name() + ".of: shape 4 holds 4 elements but the data has 6");
    e = assertThrows(IllegalArgumentException.class, () -> spec.of(seeds(6), 2, -3));
    assertThat(e).hasMessageThat().contains(spec.name() + ".of: dimension 1 of shape [2, -3]");
    assertThat(e).hasMessageThat().contains("is negative (-3)");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> spec.of(seeds(6), 1L << 32, 1L << 32, 1L << 32));
    assertThat(e).hasMessageThat().contains("holds more than 2^63 elements but the data has 6");
    e = assertThrows(IllegalArgumentException.class, () -> spec.of(seeds(6), 6, 0));
    assertThat(e).hasMessageThat().contains("holds 0 elements but the data has 6");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofNestedArraysOfRank2To4(ArraySpec spec) {
    int[][] two = {{1, 2, 3}, {4, 5, 6}};
    NdArray a2 = spec.ofNested(two);
    assertThat(a2.shape()).isEqualTo(new long[] {2, 3});
    assertThat(spec.toArray(a2)).isEqualTo(spec.values(seeds(6)));
    assertThat(spec.get(a2, 1, 0)).isEqualTo(spec.value(4));
    assertThat(spec.toArrayND(a2, 2)).isEqualTo(spec.nestedValues(two));

    int[][][] three = {{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}};
    NdArray a3 = spec.ofNested(three);
    assertThat(a3.shape()).isEqualTo(new long[] {2, 3, 2});
    assertThat(spec.toArray(a3)).isEqualTo(spec.values(seeds(12)));
    assertThat(spec.get(a3, 1, 2, 0)).isEqualTo(spec.value(11));
    assertThat(spec.toArrayND(a3, 3)).isEqualTo(spec.nestedValues(three));

    int[][][][] four = new int[2][3][1][4];
    int next = 1;
    for (int[][][] x : four) {
      for (int[][] y : x) {
        for (int[] z : y) {
          for (int w = 0; w < z.length; w++) {
            z[w] = next++;
          }
        }
      }
    }
    NdArray a4 = spec.ofNested(four);
    assertThat(a4.shape()).isEqualTo(new long[] {2, 3, 1, 4});
    assertThat(spec.toArray(a4)).isEqualTo(spec.values(seeds(24)));
    assertThat(spec.get(a4, 1, 2, 0, 3)).isEqualTo(spec.value(24));
    assertThat(spec.toArrayND(a4, 4)).isEqualTo(spec.nestedValues(four));

    // Flat data with a shape gives the same array as nested data.
    assertThat(spec.of(seeds(12), 2, 3, 2)).isEqualTo(a3);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofNestedWithEmptyLevels(ArraySpec spec) {
    assertThat(spec.ofNested(new int[0][]).shape()).isEqualTo(new long[] {0, 0});
    assertThat(spec.ofNested(new int[2][0]).shape()).isEqualTo(new long[] {2, 0});
    assertThat(spec.ofNested(new int[2][0][5]).shape()).isEqualTo(new long[] {2, 0, 0});
    assertThat(spec.ofNested(new int[1][2][0][0]).shape()).isEqualTo(new long[] {1, 2, 0, 0});
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofRejectsRaggedNestedArraysNamingTheRow(ArraySpec spec) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> spec.ofNested(new int[][] {{1, 2}, {3}}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".of: the data is ragged: data[1] has length 1 but data[0] has length 2;"
                + " every row at one depth must have the same length");

    // Deeper: the second row of the second block is short.
    int[][][] ragged3 = {{{1, 2}, {3, 4}}, {{5, 6}, {7}}};
    e = assertThrows(IllegalArgumentException.class, () -> spec.ofNested(ragged3));
    assertThat(e).hasMessageThat().contains("data[1][1] has length 1 but data[0][0] has length 2");

    // A block with a different number of rows.
    int[][][] ragged3b = {{{1}, {2}}, {{3}}};
    e = assertThrows(IllegalArgumentException.class, () -> spec.ofNested(ragged3b));
    assertThat(e).hasMessageThat().contains("data[1] has length 1 but data[0] has length 2");

    // Rank 4, innermost.
    int[][][][] ragged4 = new int[2][2][2][3];
    ragged4[1][0][1] = new int[2];
    e = assertThrows(IllegalArgumentException.class, () -> spec.ofNested(ragged4));
    assertThat(e)
        .hasMessageThat()
        .contains("data[1][0][1] has length 2 but data[0][0][0] has length 3");

    // Longer, not only shorter, rows are ragged too.
    e =
        assertThrows(
            IllegalArgumentException.class, () -> spec.ofNested(new int[][] {{1}, {2, 3}}));
    assertThat(e).hasMessageThat().contains("data[1] has length 2 but data[0] has length 1");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void ofRejectsNullRowsNamingThem(ArraySpec spec) {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> spec.ofNested(new int[][] {{1, 2}, null}));
    assertThat(e).hasMessageThat().isEqualTo(spec.name() + ".of: data[1] is null");
    e = assertThrows(NullPointerException.class, () -> spec.ofNested(new int[][] {null, {1}}));
    assertThat(e).hasMessageThat().isEqualTo(spec.name() + ".of: data[0] is null");
    int[][][] nullDeep = {{{1}}, {null}};
    e = assertThrows(NullPointerException.class, () -> spec.ofNested(nullDeep));
    assertThat(e).hasMessageThat().isEqualTo(spec.name() + ".of: data[1][0] is null");
    e = assertThrows(NullPointerException.class, () -> spec.ofNestedValues(null, 2));
    assertThat(e).hasMessageThat().contains("data is null");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void scalarsHaveRankZero(ArraySpec spec) {
    NdArray s = spec.scalar(5);
    assertThat(s.rank()).isEqualTo(0);
    assertThat(s.shape()).isEqualTo(new long[0]);
    assertThat(s.size()).isEqualTo(1);
    assertThat(s.byteLength()).isEqualTo(spec.byteSize());
    assertThat(spec.get(s)).isEqualTo(spec.value(5));
    assertThat(spec.getFlat(s, 0)).isEqualTo(spec.value(5));
    spec.set(s, 6);
    assertThat(spec.get(s)).isEqualTo(spec.value(6));
    assertThat(spec.toArray(s)).isEqualTo(spec.values(6));
    assertThat(s.toString())
        .isEqualTo(spec.name() + "<" + spec.elementType + "> " + formatted(spec, 6));
    // A 1-element array reshaped to rank 0 is a scalar too.
    assertThat(spec.of(new int[] {6}).reshape()).isEqualTo(s);
  }

  private static String formatted(ArraySpec spec, int seed) {
    Object v = spec.value(seed);
    if (spec.type == ULongArray.class) {
      return Long.toUnsignedString((Long) v);
    }
    return String.valueOf(v);
  }

  // ---------------------------------------------------------------------------------------------
  // Element access

  @ParameterizedTest
  @MethodSource("specs")
  void setAndGetByIndexAndFlatIndex(ArraySpec spec) {
    NdArray a = spec.zeros(3, 4);
    spec.set(a, 7, 2, 1);
    assertThat(spec.get(a, 2, 1)).isEqualTo(spec.value(7));
    assertThat(spec.getFlat(a, 9)).isEqualTo(spec.value(7));
    spec.setFlat(a, 8, 11);
    assertThat(spec.get(a, 2, 3)).isEqualTo(spec.value(8));
    // Every other element is still zero: compare the bytes against an array built the same way.
    NdArray b = spec.zeros(3, 4);
    spec.set(b, 7, 2, 1);
    spec.set(b, 8, 2, 3);
    assertThat(a).isEqualTo(b);
    spec.fill(a, 3);
    assertThat(spec.toArray(a)).isEqualTo(spec.values(3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3));
    spec.fill(spec.zeros(0), 3); // nothing to fill, no error
  }

  @ParameterizedTest
  @MethodSource("specs")
  void indexOutOfBoundsNamesTheAxis(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    IndexOutOfBoundsException e =
        assertThrows(IndexOutOfBoundsException.class, () -> spec.get(a, 1, 3));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "index 3 is out of bounds for axis 1 with size 3 (index [1, 3], "
                + spec.name()
                + " of shape 2x3)");
    e = assertThrows(IndexOutOfBoundsException.class, () -> spec.get(a, -1, 0));
    assertThat(e).hasMessageThat().contains("index -1 is out of bounds for axis 0 with size 2");
    e = assertThrows(IndexOutOfBoundsException.class, () -> spec.set(a, 1, 2, 0));
    assertThat(e).hasMessageThat().contains("index 2 is out of bounds for axis 0 with size 2");
    // A flat index past the end of a row is not a valid n-d index even though it is in memory.
    assertThrows(IndexOutOfBoundsException.class, () -> spec.get(a, 0, 4));
    e = assertThrows(IndexOutOfBoundsException.class, () -> spec.getFlat(a, 6));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "flat index 6 is out of bounds for 6 elements (" + spec.name() + " of shape 2x3)");
    assertThrows(IndexOutOfBoundsException.class, () -> spec.getFlat(a, -1));
    assertThrows(IndexOutOfBoundsException.class, () -> spec.setFlat(a, 1, 6));
    assertThrows(IndexOutOfBoundsException.class, () -> spec.getFlat(a, Long.MAX_VALUE));
    assertThrows(IndexOutOfBoundsException.class, () -> spec.get(a, 0, Long.MIN_VALUE));
    // Nothing was written by the failed sets.
    assertThat(a).isEqualTo(spec.zeros(2, 3));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void wrongNumberOfIndicesIsAnIllegalArgument(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> spec.get(a, 1));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(spec.name() + " of shape 2x3 takes 2 indices, got 1: [1]");
    e = assertThrows(IllegalArgumentException.class, () -> spec.set(a, 1, 0, 0, 0));
    assertThat(e).hasMessageThat().contains("takes 2 indices, got 3: [0, 0, 0]");
    e = assertThrows(IllegalArgumentException.class, () -> spec.get(spec.zeros(4)));
    assertThat(e).hasMessageThat().contains("takes 1 index, got 0: []");
    e = assertThrows(IllegalArgumentException.class, () -> spec.get(spec.scalar(1), 0));
    assertThat(e).hasMessageThat().contains("scalar takes 0 indices, got 1");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void toArrayNDChecksTheRank(ArraySpec spec) {
    NdArray a = spec.zeros(2, 3, 4);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> spec.toArrayND(a, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".toArray2D needs an array of rank 2, but this is "
                + spec.name()
                + " of shape 2x3x4 of rank 3");
    assertThrows(IllegalStateException.class, () -> spec.toArrayND(a, 4));
    assertThrows(IllegalStateException.class, () -> spec.toArrayND(spec.scalar(1), 2));
    // Empty arrays copy out with their shape.
    Object empty = spec.toArrayND(spec.zeros(3, 0), 2);
    assertThat(Array.getLength(empty)).isEqualTo(3);
    assertThat(Array.getLength(Array.get(empty, 2))).isEqualTo(0);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void toArrayNDOfAnEmptyArrayTooLongForJavaIsAClearError(ArraySpec spec) {
    NdArray a = spec.zeros(1L << 40, 0);
    assertThat(a.size()).isEqualTo(0);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> spec.toArrayND(a, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".toArray2D: dimension 0 of shape 1099511627776x0 is 1099511627776, longer than"
                + " a Java array can be (2147483647)");
    assertThat(Array.getLength(spec.toArray(a))).isEqualTo(0);
  }

  // ---------------------------------------------------------------------------------------------
  // Views share memory

  @ParameterizedTest
  @MethodSource("specs")
  void reshapeSliceAndSelectAreViewsOfTheSameMemory(ArraySpec spec) {
    NdArray a = spec.of(seeds(12), 4, 3);
    NdArray reshaped = a.reshape(2, 6);
    NdArray inferred = a.reshape(-1);
    NdArray rows = a.slice(1, 3);
    NdArray row = a.select(2);
    NdArray element = row.select(1);
    assertThat(reshaped).isInstanceOf(spec.type);
    assertThat(rows).isInstanceOf(spec.type);
    assertThat(row).isInstanceOf(spec.type);
    assertThat(reshaped.shape()).isEqualTo(new long[] {2, 6});
    assertThat(inferred.shape()).isEqualTo(new long[] {12});
    assertThat(rows.shape()).isEqualTo(new long[] {2, 3});
    assertThat(row.shape()).isEqualTo(new long[] {3});
    assertThat(element.shape()).isEqualTo(new long[0]);
    assertThat(spec.get(rows, 0, 0)).isEqualTo(spec.value(4));
    assertThat(spec.toArray(row)).isEqualTo(spec.values(7, 8, 9));
    assertThat(spec.get(element)).isEqualTo(spec.value(8));

    // Element [2, 1] is flat 7: write through each view, read through all.
    spec.set(element, 50);
    assertThat(spec.get(a, 2, 1)).isEqualTo(spec.value(50));
    assertThat(spec.get(reshaped, 1, 1)).isEqualTo(spec.value(50));
    assertThat(spec.get(inferred, 7)).isEqualTo(spec.value(50));
    assertThat(spec.get(rows, 1, 1)).isEqualTo(spec.value(50));
    assertThat(spec.get(row, 1)).isEqualTo(spec.value(50));
    spec.set(reshaped, 51, 1, 1);
    assertThat(spec.get(element)).isEqualTo(spec.value(51));
    spec.set(a, 52, 2, 1);
    assertThat(spec.get(rows, 1, 1)).isEqualTo(spec.value(52));
    spec.fill(rows, 53);
    assertThat(spec.toArray(a)).isEqualTo(spec.values(1, 2, 3, 53, 53, 53, 53, 53, 53, 10, 11, 12));

    // The views' memory is inside the original's.
    long base = NativeMemory.address(a.data());
    assertThat(NativeMemory.address(reshaped.data())).isEqualTo(base);
    assertThat(NativeMemory.address(rows.data())).isEqualTo(base + 3L * spec.byteSize());
    assertThat(NativeMemory.address(row.data())).isEqualTo(base + 6L * spec.byteSize());
    assertThat(rows.byteLength()).isEqualTo(6 * spec.byteSize());
    assertThat(row.byteLength()).isEqualTo(3 * spec.byteSize());
  }

  @ParameterizedTest
  @MethodSource("specs")
  void slicesOfSlicesAndEmptySlices(ArraySpec spec) {
    NdArray a = spec.of(seeds(10));
    NdArray inner = a.slice(2, 8).slice(1, 3);
    assertThat(spec.toArray(inner)).isEqualTo(spec.values(4, 5));
    NdArray empty = a.slice(4, 4);
    assertThat(empty.shape()).isEqualTo(new long[] {0});
    assertThat(empty.byteLength()).isEqualTo(0);
    assertThat(a.slice(0, 10)).isEqualTo(a);
    NdArray last = a.slice(10, 10);
    assertThat(last.size()).isEqualTo(0);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void viewErrorsAreClear(ArraySpec spec) {
    NdArray a = spec.zeros(4, 3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> a.reshape(5, 3));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "reshape: cannot reshape "
                + spec.name()
                + " of shape 4x3 (12 elements) to 5x3 (15 elements)");
    e = assertThrows(IllegalArgumentException.class, () -> a.reshape(-1, -1));
    assertThat(e).hasMessageThat().contains("with at most one -1");
    e = assertThrows(IllegalArgumentException.class, () -> a.reshape(-2, -6));
    assertThat(e).hasMessageThat().contains("dimensions must be >= 0");
    e = assertThrows(IllegalArgumentException.class, () -> a.reshape(5, -1));
    assertThat(e).hasMessageThat().contains("no size for the -1 dimension makes 12 elements");
    e = assertThrows(IllegalArgumentException.class, () -> a.reshape(0, -1));
    assertThat(e).hasMessageThat().contains("no size for the -1 dimension");
    e = assertThrows(IllegalArgumentException.class, () -> a.reshape(1L << 40, 1L << 40, 1L << 40));
    assertThat(e).hasMessageThat().contains("(too many elements)");
    assertThrows(NullPointerException.class, () -> a.reshape((long[]) null));

    IndexOutOfBoundsException oob =
        assertThrows(IndexOutOfBoundsException.class, () -> a.slice(2, 5));
    assertThat(oob)
        .hasMessageThat()
        .isEqualTo(
            "slice: rows [2, 5) are out of bounds for axis 0 with size 4 ("
                + spec.name()
                + " of shape 4x3); need 0 <= from <= to <= 4");
    assertThrows(IndexOutOfBoundsException.class, () -> a.slice(-1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> a.slice(3, 2));
    oob = assertThrows(IndexOutOfBoundsException.class, () -> a.select(4));
    assertThat(oob)
        .hasMessageThat()
        .isEqualTo(
            "select: index 4 is out of bounds for axis 0 with size 4 ("
                + spec.name()
                + " of shape 4x3)");
    assertThrows(IndexOutOfBoundsException.class, () -> a.select(-1));

    NdArray s = spec.scalar(1);
    e = assertThrows(IllegalArgumentException.class, () -> s.select(0));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "select: " + spec.name() + " of shape scalar has no axis 0; a scalar has no rows");
    e = assertThrows(IllegalArgumentException.class, () -> s.slice(0, 1));
    assertThat(e).hasMessageThat().startsWith("slice: ");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void reshapeOfEmptyArrays(ArraySpec spec) {
    NdArray empty = spec.zeros(0, 5);
    assertThat(empty.reshape(5, 0, 7).shape()).isEqualTo(new long[] {5, 0, 7});
    assertThat(empty.reshape(-1).shape()).isEqualTo(new long[] {0});
    assertThat(empty.reshape(-1, 3).shape()).isEqualTo(new long[] {0, 3});
    // Dimensions whose product overflows before the zero still hold nothing.
    NdArray huge = empty.reshape(1L << 62, 1L << 62, 0);
    assertThat(huge.size()).isEqualTo(0);
    assertThat(huge.toString()).endsWith("> []");
    assertThat(spec.toArray(huge)).isEqualTo(spec.values());
  }

  @ParameterizedTest
  @MethodSource("specs")
  void copyIsIndependent(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    NdArray c = a.copy();
    assertThat(c).isInstanceOf(spec.type);
    assertThat(c).isEqualTo(a);
    assertThat(c.elementType()).isEqualTo(a.elementType());
    assertThat(NativeMemory.address(c.data())).isNotEqualTo(NativeMemory.address(a.data()));
    spec.set(a, 40, 0, 0);
    assertThat(spec.get(c, 0, 0)).isEqualTo(spec.value(1));
    // Copies of views copy only the view.
    NdArray row = a.select(1).copy();
    assertThat(row.byteLength()).isEqualTo(3 * spec.byteSize());
    assertThat(spec.toArray(row)).isEqualTo(spec.values(4, 5, 6));
  }

  // ---------------------------------------------------------------------------------------------
  // Wrapping direct memory

  @ParameterizedTest
  @MethodSource("specs")
  void wrapSharesTheCallersMemoryFromItsPosition(ArraySpec spec) {
    int size = spec.byteSize();
    ByteBuffer buffer = direct(16 * size);
    buffer.position(2 * size).limit(14 * size);
    NdArray a = spec.wrap(buffer, 3, 4);
    // The caller's position and limit are untouched.
    assertThat(buffer.position()).isEqualTo(2 * size);
    assertThat(buffer.limit()).isEqualTo(14 * size);
    assertThat(a.shape()).isEqualTo(new long[] {3, 4});
    assertThat(a.elementType()).isEqualTo(spec.elementType);
    // Same memory: the array starts at the buffer's position.
    assertThat(NativeMemory.address(a.data())).isEqualTo(NativeMemory.address(buffer) + 2L * size);
    // Writes through the array show in the caller's buffer...
    NdArray reference = spec.zeros(3, 4);
    spec.set(a, 9, 0, 1);
    spec.set(reference, 9, 0, 1);
    byte[] written = new byte[size];
    buffer.duplicate().position(3 * size).get(written);
    byte[] expected = new byte[size];
    reference.data().position(size).get(expected);
    assertThat(written).isEqualTo(expected);
    // ... and writes through the buffer show in the array.
    spec.set(reference, 11, 2, 3);
    byte[] eleven = new byte[size];
    reference.data().position(11 * size).get(eleven);
    buffer.duplicate().position(13 * size).put(eleven);
    assertThat(spec.get(a, 2, 3)).isEqualTo(spec.value(11));
    // With no shape: rank 1 over everything remaining.
    assertThat(spec.wrap(buffer).shape()).isEqualTo(new long[] {12});
    // Wrapping a buffer obtained from an array gives back the same memory.
    NdArray again = spec.wrap(a.data(), 12);
    assertThat(NativeMemory.address(again.data())).isEqualTo(NativeMemory.address(a.data()));
    assertThat(spec.get(again, 11)).isEqualTo(spec.value(11));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void wrapRejectsHeapBuffersWrongOrderAndWrongSizes(ArraySpec spec) {
    int size = spec.byteSize();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.wrap(ByteBuffer.allocate(4 * size).order(ByteOrder.nativeOrder()), 4));
    assertThat(e).hasMessageThat().startsWith(spec.name() + ".wrap: the buffer is a heap buffer");
    assertThat(e).hasMessageThat().contains("ByteBuffer.allocateDirect");

    ByteOrder other =
        ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
            ? ByteOrder.BIG_ENDIAN
            : ByteOrder.LITTLE_ENDIAN;
    ByteBuffer foreign = ByteBuffer.allocateDirect(4 * size).order(other);
    if (size > 1) {
      e = assertThrows(IllegalArgumentException.class, () -> spec.wrap(foreign, 4));
      assertThat(e)
          .hasMessageThat()
          .contains(spec.name() + ".wrap: the buffer's byte order is " + other);
    } else {
      // Byte order means nothing for one-byte elements.
      assertThat(spec.wrap(foreign, 4).size()).isEqualTo(4);
    }

    e = assertThrows(IllegalArgumentException.class, () -> spec.wrap(direct(4 * size), 5));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".wrap: shape 5 of "
                + spec.elementType
                + " needs "
                + 5 * size
                + " bytes (5 x "
                + size
                + ") but the buffer has "
                + 4 * size
                + " bytes remaining");
    e = assertThrows(IllegalArgumentException.class, () -> spec.wrap(direct(4 * size), -4));
    assertThat(e).hasMessageThat().contains("is negative (-4)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec.wrap(direct(4 * size), Long.MAX_VALUE, Long.MAX_VALUE));
    assertThat(e).hasMessageThat().contains("needs more than 2^63 elements");
    if (size > 1) {
      // Overflow of elements x bytes, not of the element count.
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> spec.wrap(direct(0), Long.MAX_VALUE / size + 1));
      assertThat(e)
          .hasMessageThat()
          .endsWith(
              "needs more than 2^63 bytes ("
                  + (Long.MAX_VALUE / size + 1)
                  + " x "
                  + size
                  + ") but the buffer has 0 bytes remaining");
      e = assertThrows(IllegalArgumentException.class, () -> spec.wrap(direct(4 * size + 1)));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              spec.name()
                  + ".wrap: the buffer has "
                  + (4 * size + 1)
                  + " bytes, not a whole number of "
                  + size
                  + "-byte "
                  + spec.elementType
                  + " elements");
    }
    assertThrows(NullPointerException.class, () -> spec.wrap(null, 1));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void readOnlyMemoryReadsButDoesNotWrite(ArraySpec spec) {
    NdArray source = spec.of(seeds(4));
    // (asReadOnlyBuffer resets the order to big-endian, as duplicate and slice do.)
    NdArray a = spec.wrap(source.data().asReadOnlyBuffer().order(ByteOrder.nativeOrder()));
    assertThat(a.isReadOnly()).isTrue();
    assertThat(a.data().isReadOnly()).isTrue();
    assertThat(spec.get(a, 2)).isEqualTo(spec.value(3));
    assertThrows(ReadOnlyBufferException.class, () -> spec.set(a, 1, 0));
    assertThrows(ReadOnlyBufferException.class, () -> spec.setFlat(a, 1, 0));
    assertThrows(ReadOnlyBufferException.class, () -> spec.fill(a, 1));
    assertThat(a.slice(1, 3).isReadOnly()).isTrue();
    assertThat(a.reshape(2, 2).isReadOnly()).isTrue();
    // Still a view of the writable source.
    spec.set(source, 30, 2);
    assertThat(spec.get(a, 2)).isEqualTo(spec.value(30));
    // A copy is writable.
    NdArray c = a.copy();
    assertThat(c.isReadOnly()).isFalse();
    spec.set(c, 1, 0);
    // Buffer views of it are read-only too, and arrays from those.
    NdArray back = spec.fromBufferView(a.asBufferView());
    assertThat(back.isReadOnly()).isTrue();
  }

  // ---------------------------------------------------------------------------------------------
  // Buffer views

  @ParameterizedTest
  @MethodSource("specs")
  void asBufferViewAndFromBufferViewShareMemoryBothWays(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(spec.elementType.halCode().get());
    assertThat(view.elementType()).hasValue(spec.elementType);
    assertThat(view.shape()).isEqualTo(new long[] {2, 3});
    assertThat(view.isDirect()).isTrue();
    assertThat(view.byteLength()).isEqualTo(a.byteLength());
    assertThat(NativeMemory.address(view.data())).isEqualTo(NativeMemory.address(a.data()));

    NdArray typed = spec.fromBufferView(view);
    NdArray generic = NdArray.fromBufferView(view);
    for (NdArray back : new NdArray[] {typed, generic}) {
      assertThat(back).isInstanceOf(spec.type);
      assertThat(back).isEqualTo(a);
      assertThat(NativeMemory.address(back.data())).isEqualTo(NativeMemory.address(a.data()));
    }
    // Write through one, read through the others.
    spec.set(typed, 20, 1, 2);
    assertThat(spec.get(a, 1, 2)).isEqualTo(spec.value(20));
    assertThat(spec.get(generic, 1, 2)).isEqualTo(spec.value(20));
    spec.set(a, 21, 0, 0);
    assertThat(spec.get(typed, 0, 0)).isEqualTo(spec.value(21));
    ByteBuffer viewBytes = view.data();
    NdArray expected = spec.of(new int[] {22});
    viewBytes.put(3 * spec.byteSize(), NativeMemory.bytes(expected.data()));
    assertThat(spec.get(a, 1, 0)).isEqualTo(spec.value(22));

    // Views of views keep working: a slice's buffer view covers only the slice.
    BufferView rowView = a.select(1).asBufferView();
    assertThat(rowView.shape()).isEqualTo(new long[] {3});
    assertThat(NativeMemory.address(rowView.data()))
        .isEqualTo(NativeMemory.address(a.data()) + 3L * spec.byteSize());
    // Scalars and empty arrays round-trip too.
    NdArray scalar = spec.scalar(4);
    assertThat(NdArray.fromBufferView(scalar.asBufferView())).isEqualTo(scalar);
    NdArray empty = spec.zeros(0, 3);
    assertThat(spec.fromBufferView(empty.asBufferView())).isEqualTo(empty);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void heapBufferViewsAreCopiedIntoDirectMemory(ArraySpec spec) {
    NdArray source = spec.of(seeds(6), 3, 2);
    byte[] bytes = NativeMemory.bytes(source.data());
    ByteBuffer heap = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.nativeOrder());
    BufferView view = BufferView.wrap(spec.elementType.halCode().get(), new long[] {3, 2}, heap);
    assertThat(view.isDirect()).isFalse();
    for (NdArray a : new NdArray[] {spec.fromBufferView(view), NdArray.fromBufferView(view)}) {
      assertThat(a).isInstanceOf(spec.type);
      assertThat(a.data().isDirect()).isTrue();
      assertThat(NativeMemory.address(a.data()) % 64).isEqualTo(0);
      assertThat(a).isEqualTo(source);
      // A copy: writing the array leaves the heap bytes alone.
      spec.fill(a, 9);
      assertThat(heap.array()).isEqualTo(bytes);
    }
  }

  @ParameterizedTest
  @MethodSource("specs")
  void fromBufferViewRejectsOtherElementTypesNamingTheRightClass(ArraySpec spec) {
    // A view of another class's element type, of the same element size where one exists.
    ArraySpec other =
        ArraySpec.all().stream()
            .filter(s -> s.type != spec.type)
            // not one stored alike (i1 and the 8-bit integers; signless and signed or unsigned)
            .filter(s -> !spec.elementType.accepts(s.elementType))
            .filter(s -> !s.elementType.accepts(spec.elementType))
            .sorted(java.util.Comparator.comparing(s -> s.byteSize() != spec.byteSize()))
            .findFirst()
            .get();
    BufferView view = other.zeros(2, 2).asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> spec.fromBufferView(view));
    assertThat(e)
        .hasMessageThat()
        .startsWith(spec.name() + ".fromBufferView: " + spec.name() + " holds " + spec.elementType);
    assertThat(e)
        .hasMessageThat()
        .contains(
            "but the buffer view holds "
                + other.elementType
                + " (HAL "
                + String.format("0x%08x", other.elementType.halCode().get())
                + "), shape 2x2; "
                + other.name()
                + ".fromBufferView reads it, as does NdArray.fromBufferView");

    // A type no class holds.
    BufferView complex =
        BufferView.wrap(ElementType.COMPLEX64.halCode().get(), new long[] {2}, direct(16));
    e = assertThrows(IllegalArgumentException.class, () -> spec.fromBufferView(complex));
    assertThat(e)
        .hasMessageThat()
        .contains("but the buffer view holds complex<f32> (HAL 0x23000040), shape 2");
    assertThat(e).hasMessageThat().doesNotContain("reads it");
    assertThrows(NullPointerException.class, () -> spec.fromBufferView(null));
  }

  // ---------------------------------------------------------------------------------------------
  // Equality and printing

  @ParameterizedTest
  @MethodSource("specs")
  void equalsAndHashCode(ArraySpec spec) {
    NdArray a = spec.of(seeds(6), 2, 3);
    NdArray b = spec.of(seeds(6), 2, 3);
    assertThat(a).isEqualTo(b);
    assertThat(a.hashCode()).isEqualTo(b.hashCode());
    assertThat(a).isEqualTo(a);
    assertThat(a.equals(null)).isFalse();
    assertThat(a.equals("a string")).isFalse();
    // A wrapped copy of the same bytes is equal: equality is by value, not memory.
    ByteBuffer bytes = direct(a.byteLength());
    bytes.put(a.data()).flip();
    assertThat(spec.wrap(bytes, 2, 3)).isEqualTo(a);
    // Shape matters.
    assertThat(a.reshape(3, 2)).isNotEqualTo(a);
    assertThat(a.reshape(6)).isNotEqualTo(a);
    // Elements matter, and the hash follows a change (as a List's does).
    int before = b.hashCode();
    assertThat(spec.value(7)).isNotEqualTo(spec.value(6)); // booleans too: odd and even
    spec.set(b, 7, 1, 2);
    assertThat(b).isNotEqualTo(a);
    assertThat(a).isNotEqualTo(b);
    assertThat(b.hashCode()).isNotEqualTo(before);
    spec.set(b, 6, 1, 2);
    assertThat(b).isEqualTo(a);
    assertThat(b.hashCode()).isEqualTo(before);
    // Another class over the same bytes is never equal.
    for (ArraySpec other : ArraySpec.all()) {
      if (other.type != spec.type && other.byteSize() == spec.byteSize()) {
        NdArray same = other.wrap(a.data(), 2, 3);
        assertThat(same).isNotEqualTo(a);
        assertThat(a).isNotEqualTo(same);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("specs")
  void toStringShowsTypeShapeAndNestedElements(ArraySpec spec) {
    NdArray a = spec.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3);
    assertThat(a.toString())
        .isEqualTo(
            spec.name()
                + "<2x3x"
                + spec.elementType
                + "> [["
                + formatted(spec, 1)
                + ", "
                + formatted(spec, 2)
                + ", "
                + formatted(spec, 3)
                + "], ["
                + formatted(spec, 4)
                + ", "
                + formatted(spec, 5)
                + ", "
                + formatted(spec, 6)
                + "]]");
    assertThat(spec.zeros(0).toString()).isEqualTo(spec.name() + "<0x" + spec.elementType + "> []");
    assertThat(spec.zeros(3, 0).toString())
        .isEqualTo(spec.name() + "<3x0x" + spec.elementType + "> []");
  }

  @ParameterizedTest
  @MethodSource("specs")
  void toStringOfLargeArraysIsSummarised(ArraySpec spec) {
    int[] cycling = new int[1000]; // seeds 1..150 repeating: exact even in bf16
    for (int i = 0; i < cycling.length; i++) {
      cycling[i] = 1 + i % 150;
    }
    NdArray big = spec.of(cycling);
    assertThat(big.toString())
        .isEqualTo(
            spec.name()
                + "<1000x"
                + spec.elementType
                + "> ["
                + String.join(
                    ", ",
                    formatted(spec, 1),
                    formatted(spec, 2),
                    formatted(spec, 3),
                    "...",
                    formatted(spec, 98),
                    formatted(spec, 99),
                    formatted(spec, 100))
                + "]");
    // Rank 2: both long axes are elided; a short axis is printed whole.
    NdArray grid = spec.zeros(20, 30);
    String g = grid.toString();
    assertThat(g).contains("], ..., [");
    assertThat(g.split("\\[", -1)).hasLength(1 + 1 + 6); // the outer bracket and six rows
    assertThat(spec.zeros(2, 100).toString().split("\\[", -1)).hasLength(1 + 1 + 2);
    // 100 elements are printed whole; 101 are summarised.
    assertThat(spec.zeros(100).toString()).doesNotContain("...");
    assertThat(spec.zeros(101).toString()).contains("...");
    // Huge shapes print quickly.
    assertThat(spec.zeros(1L << 40, 0).toString())
        .endsWith("<1099511627776x0x" + spec.elementType + "> []");
    // A very high rank prints without recursing once per axis.
    NdArray deep = spec.zeros(fill(20_000, 1));
    assertThat(deep.toString()).endsWith(formatted(spec, 0).isEmpty() ? "" : "]]]");
    assertThat(deep.toString().chars().filter(c -> c == '[').count()).isEqualTo(20_000);
  }

  private static long[] fill(int n, long value) {
    long[] a = new long[n];
    java.util.Arrays.fill(a, value);
    return a;
  }

  // ---------------------------------------------------------------------------------------------
  // Bad shapes

  @ParameterizedTest
  @MethodSource("specs")
  void zerosRejectsBadShapesClearly(ArraySpec spec) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> spec.zeros(3, -1));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".zeros: dimension 1 of shape [3, -1] is negative (-1); every dimension must be"
                + " >= 0");
    e = assertThrows(IllegalArgumentException.class, () -> spec.zeros(Long.MIN_VALUE));
    assertThat(e).hasMessageThat().contains("is negative");
    // Element count overflows a long.
    e =
        assertThrows(
            IllegalArgumentException.class, () -> spec.zeros(Long.MAX_VALUE, Long.MAX_VALUE));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".zeros: shape 9223372036854775807x9223372036854775807 of "
                + spec.elementType
                + " needs more than 2^63 elements; an array holds at most 2147483647 bytes");
    // Byte length overflows a long although the count does not.
    if (spec.byteSize() > 1) {
      e = assertThrows(IllegalArgumentException.class, () -> spec.zeros(Long.MAX_VALUE / 2 + 1));
      assertThat(e).hasMessageThat().contains("an array holds at most 2147483647 bytes");
    }
    // One byte over the limit.
    long tooMany = (long) Integer.MAX_VALUE / spec.byteSize() + 1;
    e = assertThrows(IllegalArgumentException.class, () -> spec.zeros(tooMany));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            spec.name()
                + ".zeros: shape "
                + tooMany
                + " of "
                + spec.elementType
                + " needs "
                + tooMany
                + " elements of "
                + spec.byteSize()
                + " bytes; an array holds at most 2147483647 bytes");
    e = assertThrows(IllegalArgumentException.class, () -> spec.zeros(1 << 16, 1 << 16));
    assertThat(e).hasMessageThat().contains("an array holds at most 2147483647 bytes");
    assertThrows(NullPointerException.class, () -> spec.zeros((long[]) null));
    // Shapes with a zero are fine whatever the other dimensions.
    assertThat(spec.zeros(Long.MAX_VALUE, Long.MAX_VALUE, 0).size()).isEqualTo(0);
    assertThat(spec.zeros(0, Long.MAX_VALUE).byteLength()).isEqualTo(0);
    // A rank-0 zeros is a scalar.
    assertThat(spec.zeros().shape()).isEqualTo(new long[0]);
    assertThat(spec.zeros().size()).isEqualTo(1);
  }
}
