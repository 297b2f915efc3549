package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.vm.VmValue.f32;
import static dev.ireestubs.vm.VmValue.i32;
import static dev.ireestubs.vm.VmValue.i64;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VmRefArrayTest {

  private static VmList strings(String... s) {
    VmList values = VmList.ofRefs("vm.list", s.length);
    for (String x : s) {
      values.pushRef(VmList.utf8(x));
    }
    return values;
  }

  @Test
  void packBuildsTheValuesDimsTuple() {
    VmList values = strings("a", "b", "c", "d", "e", "f");
    VmList tuple = VmRefArray.pack(values, 2, 3);
    assertThat(tuple.elementType().isVariant()).isTrue();
    assertThat(tuple.size()).isEqualTo(2);
    assertThat(tuple.getList(0)).isSameInstanceAs(values);
    assertThat(tuple.getList(1))
        .isEqualTo(VmList.ofValues(VmValueType.I64, 2).pushValue(i64(2)).pushValue(i64(3)));
    assertThat(tuple.getList(1).toString()).isEqualTo("list<i64>[2, 3]");
  }

  @Test
  void unpackInvertsPack() {
    VmList values = strings("x", "y");
    VmRefArray array = VmRefArray.unpack(VmRefArray.pack(values, 2, 1));
    assertThat(array.values()).isSameInstanceAs(values);
    assertThat(array.dims()).isEqualTo(new long[] {2, 1});
    assertThat(array.rank()).isEqualTo(2);
    assertThat(array.elementCount()).isEqualTo(2);
    assertThat(array).isEqualTo(VmRefArray.of(strings("x", "y"), 2, 1));
    assertThat(array.hashCode()).isEqualTo(VmRefArray.of(strings("x", "y"), 2, 1).hashCode());
    assertThat(array).isNotEqualTo(VmRefArray.of(strings("x", "y"), 1, 2));
    assertThat(array.values().getList(1).toUtf8String()).isEqualTo("y");
    assertThat(array.toList()).isEqualTo(VmRefArray.pack(values, 2, 1));
  }

  @Test
  void unpackAcceptsAnyIntegerDims() {
    VmList values = VmList.of(null, null, null);
    VmList i32Dims = VmList.ofValues(VmValueType.I32, 1).pushValue(i32(3));
    assertThat(VmRefArray.unpack(VmList.of(values, i32Dims)).dims()).isEqualTo(new long[] {3});
    VmList variantDims = VmList.of(i64(1), i32(3));
    assertThat(VmRefArray.unpack(VmList.of(values, variantDims)).dims())
        .isEqualTo(new long[] {1, 3});
  }

  @Test
  void rankZeroAndEmptyArrays() {
    VmList one = VmList.of(OpaqueRef.of("hal.fence", null));
    VmRefArray scalar = VmRefArray.of(one);
    assertThat(scalar.rank()).isEqualTo(0);
    assertThat(scalar.elementCount()).isEqualTo(1);
    assertThat(VmRefArray.unpack(scalar.toList()).rank()).isEqualTo(0);
    VmRefArray empty = VmRefArray.of(VmList.variant(0), 3, 0);
    assertThat(empty.elementCount()).isEqualTo(0);
    assertThat(empty.toString()).isEqualTo("refarray<3x0>[]");
  }

  @Test
  void countMismatchIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> VmRefArray.pack(strings("a"), 2, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("a ref n-d array of shape [2, 2] has 4 elements, but the values list has 1");
    VmList tuple = VmList.of(strings("a", "b"), VmList.of(i64(3)));
    assertThrows(IllegalArgumentException.class, () -> VmRefArray.unpack(tuple));
    VmList values = strings("a", "b");
    VmRefArray array = VmRefArray.of(values, 2);
    values.resize(3);
    assertThrows(IllegalArgumentException.class, array::toList);
  }

  @Test
  void negativeAndHugeDimsAreRejected() {
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> VmRefArray.of(VmList.variant(0), -1, 0));
    assertThat(negative).hasMessageThat().isEqualTo("negative dim in ref n-d array shape [-1, 0]");
    assertThrows(
        IllegalArgumentException.class, () -> VmRefArray.of(VmList.variant(0), Long.MAX_VALUE, 3));
  }

  @Test
  void malformedTuplesAreRejected() {
    VmTypeException size =
        assertThrows(VmTypeException.class, () -> VmRefArray.unpack(VmList.of(VmList.of())));
    assertThat(size)
        .hasMessageThat()
        .isEqualTo("a ref n-d array is the tuple (values list, dims list); got a list of size 1");
    VmTypeException notList =
        assertThrows(
            VmTypeException.class, () -> VmRefArray.unpack(VmList.of(VmList.of(), i64(0))));
    assertThat(notList)
        .hasMessageThat()
        .isEqualTo("variant at index 1 is not a ref: expected vm.list, got i64 0");
    VmTypeException floatDim =
        assertThrows(
            VmTypeException.class,
            () -> VmRefArray.unpack(VmList.of(VmList.of((Object) null), VmList.of(f32(1f)))));
    assertThat(floatDim)
        .hasMessageThat()
        .isEqualTo("dim 0 of a ref n-d array is f32 1.0, not an integer");
  }

  @Test
  void toStringShowsShapeAndValues() {
    assertThat(VmRefArray.of(strings("a", "b"), 1, 2).toString())
        .isEqualTo("refarray<1x2>list<!vm.list>[list<i8>[97], list<i8>[98]]");
  }
}
