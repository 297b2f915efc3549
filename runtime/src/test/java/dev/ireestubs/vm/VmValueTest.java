package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.VmKind;
import org.junit.jupiter.api.Test;

class VmValueTest {

  @Test
  void valueTypeCodesMatchTheCEnum() {
    assertThat(VmValueType.I8.code()).isEqualTo(1);
    assertThat(VmValueType.I16.code()).isEqualTo(2);
    assertThat(VmValueType.I32.code()).isEqualTo(3);
    assertThat(VmValueType.I64.code()).isEqualTo(4);
    assertThat(VmValueType.F32.code()).isEqualTo(5);
    assertThat(VmValueType.F64.code()).isEqualTo(6);
    for (VmValueType t : VmValueType.values()) {
      assertThat(VmValueType.fromCode(t.code())).hasValue(t);
    }
    assertThat(VmValueType.fromCode(0)).isEmpty();
    assertThat(VmValueType.fromCode(7)).isEmpty();
  }

  @Test
  void valueTypesMapToCconvKinds() {
    assertThat(VmValueType.I8.cconvKind()).isEqualTo(VmKind.I32);
    assertThat(VmValueType.I16.cconvKind()).isEqualTo(VmKind.I32);
    assertThat(VmValueType.I32.cconvKind()).isEqualTo(VmKind.I32);
    assertThat(VmValueType.I64.cconvKind()).isEqualTo(VmKind.I64);
    assertThat(VmValueType.F32.cconvKind()).isEqualTo(VmKind.F32);
    assertThat(VmValueType.F64.cconvKind()).isEqualTo(VmKind.F64);
    assertThat(VmValueType.forCconvKind(VmKind.I32)).isEqualTo(VmValueType.I32);
    assertThat(VmValueType.forCconvKind(VmKind.I64)).isEqualTo(VmValueType.I64);
    assertThat(VmValueType.forCconvKind(VmKind.F32)).isEqualTo(VmValueType.F32);
    assertThat(VmValueType.forCconvKind(VmKind.F64)).isEqualTo(VmValueType.F64);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> VmValueType.forCconvKind(VmKind.REF));
    assertThat(e).hasMessageThat().contains("cconv kind r is a ref");
  }

  @Test
  void valueTypeWidthsNamesAndElementTypes() {
    assertThat(VmValueType.I8.bitWidth()).isEqualTo(8);
    assertThat(VmValueType.I16.byteSize()).isEqualTo(2);
    assertThat(VmValueType.F64.byteSize()).isEqualTo(8);
    assertThat(VmValueType.I64.isInteger()).isTrue();
    assertThat(VmValueType.F32.isFloat()).isTrue();
    assertThat(VmValueType.I32.isFloat()).isFalse();
    assertThat(VmValueType.I16.toString()).isEqualTo("i16");
    assertThat(VmValueType.F64.mlirName()).isEqualTo("f64");
    assertThat(VmValueType.I8.elementType()).isEqualTo(ElementType.I8);
    assertThat(VmValueType.I16.elementType()).isEqualTo(ElementType.I16);
    assertThat(VmValueType.I32.elementType()).isEqualTo(ElementType.I32);
    assertThat(VmValueType.I64.elementType()).isEqualTo(ElementType.I64);
    assertThat(VmValueType.F32.elementType()).isEqualTo(ElementType.F32);
    assertThat(VmValueType.F64.elementType()).isEqualTo(ElementType.F64);
  }

  @Test
  void factoriesKeepTypeAndValue() {
    assertThat(VmValue.i8((byte) -7).type()).isEqualTo(VmValueType.I8);
    assertThat(VmValue.i8((byte) -7).asI8()).isEqualTo((byte) -7);
    assertThat(VmValue.i16((short) 1234).asI16()).isEqualTo((short) 1234);
    assertThat(VmValue.i32(Integer.MIN_VALUE).asI32()).isEqualTo(Integer.MIN_VALUE);
    assertThat(VmValue.i64(Long.MAX_VALUE).asI64()).isEqualTo(Long.MAX_VALUE);
    assertThat(VmValue.f32(1.5f).asF32()).isEqualTo(1.5f);
    assertThat(VmValue.f64(-2.25).asF64()).isEqualTo(-2.25);
    assertThat(VmValue.i64(1).cconvKind()).isEqualTo(VmKind.I64);
    assertThat(VmValue.i8((byte) 1).cconvKind()).isEqualTo(VmKind.I32);
    assertThat(VmValue.f32(0).isFloat()).isTrue();
    assertThat(VmValue.i16((short) 0).isInteger()).isTrue();
  }

  @Test
  void zeroOfEveryType() {
    for (VmValueType t : VmValueType.values()) {
      VmValue z = VmValue.zero(t);
      assertThat(z.type()).isEqualTo(t);
      assertThat(z.rawBits()).isEqualTo(0L);
    }
    assertThat(VmValue.zero(VmValueType.F32)).isEqualTo(VmValue.f32(0f));
    assertThat(VmValue.zero(VmValueType.F64)).isEqualTo(VmValue.f64(0.0));
  }

  @Test
  void integerWideningSignExtends() {
    assertThat(VmValue.i8((byte) -1).asI16()).isEqualTo((short) -1);
    assertThat(VmValue.i8((byte) -1).asI32()).isEqualTo(-1);
    assertThat(VmValue.i8((byte) -1).asI64()).isEqualTo(-1L);
    assertThat(VmValue.i8((byte) 0x80).asI32()).isEqualTo(-128);
    assertThat(VmValue.i16((short) 0x8000).asI32()).isEqualTo(-32768);
    assertThat(VmValue.i32(-5).asI64()).isEqualTo(-5L);
    assertThat(VmValue.i32(Integer.MIN_VALUE).asI64()).isEqualTo((long) Integer.MIN_VALUE);
  }

  @Test
  void integerNarrowingTruncates() {
    assertThat(VmValue.i32(200).asI8()).isEqualTo((byte) -56);
    assertThat(VmValue.i32(0x12345678).asI16()).isEqualTo((short) 0x5678);
    assertThat(VmValue.i32(0x18000).asI16()).isEqualTo((short) -32768);
    assertThat(VmValue.i64(0x1_0000_0005L).asI32()).isEqualTo(5);
    assertThat(VmValue.i64(0xFFFF_FFFFL).asI32()).isEqualTo(-1);
    assertThat(VmValue.i64(0x1234_5678_9ABC_DEF0L).asI8()).isEqualTo((byte) 0xF0);
    assertThat(VmValue.i16((short) 0x1234).asI8()).isEqualTo((byte) 0x34);
  }

  @Test
  void floatWideningIsExact() {
    assertThat(VmValue.f32(0.1f).asF64()).isEqualTo((double) 0.1f);
    assertThat(VmValue.f32(0.1f).asF64()).isEqualTo(0.10000000149011612);
    assertThat(VmValue.f32(Float.MAX_VALUE).asF64()).isEqualTo((double) Float.MAX_VALUE);
    assertThat(VmValue.f32(Float.NEGATIVE_INFINITY).asF64()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Double.isNaN(VmValue.f32(Float.NaN).asF64())).isTrue();
  }

  @Test
  void floatNarrowingRoundsToNearestEven() {
    assertThat(VmValue.f64(0.1).asF32()).isEqualTo(0.1f);
    double halfUlp = Math.scalb(1.0, -24);
    // Exactly halfway between 1 and the next float: ties to even (1.0).
    assertThat(VmValue.f64(1.0 + halfUlp).asF32()).isEqualTo(1.0f);
    // Halfway between 1+2^-23 (odd) and 1+2^-22 (even): up to the even one.
    assertThat(VmValue.f64(1.0 + 3 * halfUlp).asF32()).isEqualTo(1.0f + 2 * Math.ulp(1.0f));
    // Just above halfway rounds up.
    assertThat(VmValue.f64(1.0 + halfUlp + Math.scalb(1.0, -40)).asF32())
        .isEqualTo(1.0f + Math.ulp(1.0f));
    assertThat(VmValue.f64(1e300).asF32()).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(VmValue.f64(-1e300).asF32()).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(VmValue.f64(1e-50).asF32()).isEqualTo(0.0f);
    assertThat(Float.isNaN(VmValue.f64(Double.NaN).asF32())).isTrue();
  }

  @Test
  void intToFloatIsRefused() {
    VmTypeException e = assertThrows(VmTypeException.class, () -> VmValue.i32(5).asF32());
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "cannot convert i32 5 to f32: the VM does not convert between integers and floats");
    assertThrows(VmTypeException.class, () -> VmValue.i64(5).asF64());
    assertThrows(VmTypeException.class, () -> VmValue.i8((byte) 5).convertTo(VmValueType.F64));
  }

  @Test
  void floatToIntIsRefused() {
    VmTypeException e = assertThrows(VmTypeException.class, () -> VmValue.f32(1.5f).asI32());
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "cannot convert f32 1.5 to i32: the VM does not convert between integers and floats");
    assertThrows(VmTypeException.class, () -> VmValue.f64(2.0).asI64());
    assertThrows(VmTypeException.class, () -> VmValue.f64(2.0).asI8());
    assertThrows(VmTypeException.class, () -> VmValue.f32(2.0f).asI16());
    assertThrows(VmTypeException.class, () -> VmValue.f32(2.0f).convertTo(VmValueType.I64));
  }

  @Test
  void convertToFollowsTheVm() {
    VmValue v = VmValue.i32(-1);
    assertThat(v.convertTo(VmValueType.I32)).isSameInstanceAs(v);
    assertThat(v.convertTo(VmValueType.I8)).isEqualTo(VmValue.i8((byte) -1));
    assertThat(v.convertTo(VmValueType.I16)).isEqualTo(VmValue.i16((short) -1));
    assertThat(v.convertTo(VmValueType.I64)).isEqualTo(VmValue.i64(-1));
    assertThat(VmValue.i64(300).convertTo(VmValueType.I8)).isEqualTo(VmValue.i8((byte) 44));
    assertThat(VmValue.f64(0.1).convertTo(VmValueType.F32)).isEqualTo(VmValue.f32(0.1f));
    assertThat(VmValue.f32(0.5f).convertTo(VmValueType.F64)).isEqualTo(VmValue.f64(0.5));
  }

  @Test
  void fromBitsReadsTheLowBitsOfTheUnion() {
    assertThat(VmValue.fromBits(VmValueType.I8, 0xFF)).isEqualTo(VmValue.i8((byte) -1));
    assertThat(VmValue.fromBits(VmValueType.I16, 0xABCD_8001L))
        .isEqualTo(VmValue.i16((short) 0x8001));
    assertThat(VmValue.fromBits(VmValueType.I32, 0xFFFF_FFFF_0000_0007L)).isEqualTo(VmValue.i32(7));
    assertThat(VmValue.fromBits(VmValueType.I64, -3L)).isEqualTo(VmValue.i64(-3));
    assertThat(
            VmValue.fromBits(
                VmValueType.F32, 0xDEAD_0000_0000_0000L | Float.floatToRawIntBits(1.5f)))
        .isEqualTo(VmValue.f32(1.5f));
    assertThat(VmValue.fromBits(VmValueType.F64, Double.doubleToRawLongBits(-0.25)))
        .isEqualTo(VmValue.f64(-0.25));
  }

  @Test
  void rawBitsRoundTrip() {
    VmValue[] values = {
      VmValue.i8((byte) -128), VmValue.i16((short) -2), VmValue.i32(123456), VmValue.i64(-1L << 40),
      VmValue.f32(-0.0f), VmValue.f32(Float.NaN), VmValue.f64(Double.MIN_VALUE), VmValue.f64(-0.0)
    };
    for (VmValue v : values) {
      assertThat(VmValue.fromBits(v.type(), v.rawBits())).isEqualTo(v);
    }
    assertThat(VmValue.i8((byte) -1).rawBits()).isEqualTo(-1L);
    assertThat(VmValue.f32(-0.0f).rawBits()).isEqualTo(0x8000_0000L);
  }

  @Test
  void equalityIsTypeAndBits() {
    assertThat(VmValue.i32(5)).isEqualTo(VmValue.i32(5));
    assertThat(VmValue.i32(5).hashCode()).isEqualTo(VmValue.i32(5).hashCode());
    assertThat(VmValue.i32(5)).isNotEqualTo(VmValue.i64(5));
    assertThat(VmValue.i8((byte) 5)).isNotEqualTo(VmValue.i16((short) 5));
    assertThat(VmValue.f32(1f)).isNotEqualTo(VmValue.f64(1.0));
    assertThat(VmValue.f32(Float.NaN)).isEqualTo(VmValue.f32(Float.NaN));
    assertThat(VmValue.f64(0.0)).isNotEqualTo(VmValue.f64(-0.0));
    assertThat(VmValue.i32(5)).isNotEqualTo("i32 5");
  }

  @Test
  void toStringIsTypeThenValue() {
    assertThat(VmValue.i32(5).toString()).isEqualTo("i32 5");
    assertThat(VmValue.i8((byte) -1).toString()).isEqualTo("i8 -1");
    assertThat(VmValue.i16((short) 300).toString()).isEqualTo("i16 300");
    assertThat(VmValue.i64(Long.MIN_VALUE).toString()).isEqualTo("i64 -9223372036854775808");
    assertThat(VmValue.f32(1.5f).toString()).isEqualTo("f32 1.5");
    assertThat(VmValue.f32(0.1f).toString()).isEqualTo("f32 0.1");
    assertThat(VmValue.f64(0.1).toString()).isEqualTo("f64 0.1");
    assertThat(VmValue.f64(Double.NaN).toString()).isEqualTo("f64 NaN");
    assertThat(VmValue.f32(Float.NEGATIVE_INFINITY).toString()).isEqualTo("f32 -Infinity");
  }

  @Test
  void boxedIsTheJavaNumberOfTheSameWidth() {
    assertThat(VmValue.i8((byte) -1).boxed()).isEqualTo((byte) -1);
    assertThat(VmValue.i16((short) 2).boxed()).isEqualTo((short) 2);
    assertThat(VmValue.i32(3).boxed()).isEqualTo(3);
    assertThat(VmValue.i64(4).boxed()).isEqualTo(4L);
    assertThat(VmValue.f32(1.5f).boxed()).isEqualTo(1.5f);
    assertThat(VmValue.f64(2.5).boxed()).isEqualTo(2.5);
  }
}
