package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.iree.Encodings.RefTypes;
import dev.ireestubs.iree.Encodings.TypeDefKind;
import dev.ireestubs.vm.VmTypeDef;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** iree_vm_value_t bytes and iree_vm_type_def_t words, built without the library. */
class EncodingsTest {

  /** Plausible registration values: descriptor addresses with a tag in the low 3 bits. */
  private static final RefTypes REF_TYPES = new RefTypes(0x7f12_3456_7801L, 0x7f12_3456_9a02L);

  private static byte[] encode(VmValue v) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = arena.allocate(Layouts.VM_VALUE);
      s.fill((byte) 0x5A); // garbage that writeValue must clear
      Encodings.writeValue(s, v);
      return s.toArray(JAVA_BYTE);
    }
  }

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  @Test
  void valuesAreTypeCodeThenLittleEndianUnionOfTheirWidth() {
    assertThat(encode(VmValue.i8((byte) -1)))
        .isEqualTo(bytes(1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0));
    assertThat(encode(VmValue.i16((short) -2)))
        .isEqualTo(bytes(2, 0, 0, 0, 0, 0, 0, 0, 0xFE, 0xFF, 0, 0, 0, 0, 0, 0));
    assertThat(encode(VmValue.i32(0x12345678)))
        .isEqualTo(bytes(3, 0, 0, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0));
    assertThat(encode(VmValue.i64(-2L)))
        .isEqualTo(bytes(4, 0, 0, 0, 0, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF));
    // 1.5f = 0x3FC00000, 1.5 = 0x3FF8000000000000
    assertThat(encode(VmValue.f32(1.5f)))
        .isEqualTo(bytes(5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0));
    assertThat(encode(VmValue.f64(1.5)))
        .isEqualTo(bytes(6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F));
  }

  @Test
  void everyValueRoundTrips() {
    VmValue[] values = {
      VmValue.i8(Byte.MIN_VALUE),
      VmValue.i16(Short.MAX_VALUE),
      VmValue.i32(-7),
      VmValue.i64(1L << 40),
      VmValue.i64(Long.MIN_VALUE),
      VmValue.f32(-0.0f),
      VmValue.f32(Float.intBitsToFloat(0x7fc0_1234)),
      VmValue.f64(Math.PI),
      VmValue.f64(Double.NEGATIVE_INFINITY)
    };
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = arena.allocate(Layouts.VM_VALUE);
      for (VmValue v : values) {
        Encodings.writeValue(s, v);
        assertThat(Encodings.readValue(s)).isEqualTo(Optional.of(v));
      }
    }
  }

  @Test
  void readingIgnoresUnionBytesPastTheWidth() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = arena.allocate(Layouts.VM_VALUE);
      s.set(JAVA_INT, 0, VmValueType.I32.code());
      s.set(JAVA_LONG, 8, 0xDEAD_BEEF_FFFF_FFFEL); // IREE writes only the low 4 bytes of an i32
      assertThat(Encodings.readValue(s)).isEqualTo(Optional.of(VmValue.i32(-2)));
      s.set(JAVA_INT, 0, VmValueType.I8.code());
      assertThat(Encodings.readValue(s)).isEqualTo(Optional.of(VmValue.i8((byte) -2)));
      s.set(JAVA_INT, 0, VmValueType.F32.code());
      s.set(JAVA_LONG, 8, 0xFFFF_FFFF_3FC0_0000L);
      assertThat(Encodings.readValue(s)).isEqualTo(Optional.of(VmValue.f32(1.5f)));
    }
  }

  @Test
  void noneIsEmptyAndUnknownCodesAreRefused() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = arena.allocate(Layouts.VM_VALUE);
      assertThat(Encodings.readValue(s)).isEmpty();
      s.set(JAVA_INT, 0, 7);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Encodings.readValue(s));
      assertThat(e).hasMessageThat().contains("unknown iree_vm_value_type_t 7");
    }
  }

  @Test
  void typeDefWords() {
    assertThat(Encodings.typeDefWord(VmTypeDef.VARIANT, REF_TYPES)).isEqualTo(Optional.of(0L));
    assertThat(Encodings.typeDefWord(VmTypeDef.value(VmValueType.I32), REF_TYPES))
        .isEqualTo(Optional.of(3L));
    assertThat(Encodings.typeDefWord(VmTypeDef.value(VmValueType.I8), REF_TYPES))
        .isEqualTo(Optional.of(1L));
    assertThat(Encodings.typeDefWord(VmTypeDef.value(VmValueType.F64), REF_TYPES))
        .isEqualTo(Optional.of(6L));
    // A ref list: the registered type with its tag bits cleared.
    assertThat(Encodings.typeDefWord(VmTypeDef.ref("hal.buffer_view"), REF_TYPES))
        .isEqualTo(Optional.of(0x7f12_3456_9a00L));
    assertThat(Encodings.typeDefWord(VmTypeDef.ref("vm.list"), REF_TYPES))
        .isEqualTo(Optional.of(0x7f12_3456_7800L));
    assertThat(Encodings.typeDefWord(VmTypeDef.ref("hal.fence"), REF_TYPES)).isEmpty();
  }

  @Test
  void typeDefWordKinds() {
    assertThat(Encodings.kindOf(0)).isEqualTo(TypeDefKind.VARIANT);
    for (VmValueType t : VmValueType.values()) {
      assertThat(Encodings.kindOf(t.code())).isEqualTo(TypeDefKind.VALUE);
      assertThat(Encodings.valueTypeCode(t.code())).isEqualTo(t.code());
    }
    assertThat(Encodings.kindOf(0x7f12_3456_9a00L)).isEqualTo(TypeDefKind.REF);
  }

  @Test
  void refTypesCompareWithoutTagBits() {
    assertThat(REF_TYPES.isBufferView(0x7f12_3456_9a00L)).isTrue();
    assertThat(REF_TYPES.isBufferView(0x7f12_3456_9a07L)).isTrue();
    assertThat(REF_TYPES.isList(0x7f12_3456_9a02L)).isFalse();
    assertThat(REF_TYPES.isList(0x7f12_3456_7805L)).isTrue();
  }

  @Test
  void halConstantsMatchTheDoc() {
    assertThat(Encodings.ENCODING_DENSE_ROW_MAJOR).isEqualTo(1);
    assertThat(Encodings.MEMORY_TYPE_DEVICE_LOCAL).isEqualTo(0x30);
    assertThat(Encodings.MEMORY_ACCESS_ALL).isEqualTo((short) 7);
    assertThat(Encodings.BUFFER_USAGE_DEFAULT).isEqualTo(0xC03);
    assertThat(Encodings.QUEUE_AFFINITY_ANY).isEqualTo(~0L);
  }
}
