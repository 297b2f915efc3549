package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ElementTypeTest {

  @Test
  void halCodesMatchIreesTable() {
    // (numerical_type << 24) | bit_count, from iree/hal/buffer_view.h.
    assertThat(ElementType.F16.halCode()).hasValue(0x21000010);
    assertThat(ElementType.F32.halCode()).hasValue(0x21000020);
    assertThat(ElementType.F64.halCode()).hasValue(0x21000040);
    assertThat(ElementType.BF16.halCode()).hasValue(0x22000010);
    assertThat(ElementType.I1.halCode()).hasValue(0x13000008);
    assertThat(ElementType.I8.halCode()).hasValue(0x10000008);
    assertThat(ElementType.SI8.halCode()).hasValue(0x11000008);
    assertThat(ElementType.UI8.halCode()).hasValue(0x12000008);
    assertThat(ElementType.I32.halCode()).hasValue(0x10000020);
    assertThat(ElementType.SI32.halCode()).hasValue(0x11000020);
    assertThat(ElementType.UI64.halCode()).hasValue(0x12000040);
    assertThat(ElementType.integer(4).halCode()).hasValue(0x10000004);
    assertThat(ElementType.COMPLEX64.halCode()).hasValue(0x23000040);
    assertThat(ElementType.COMPLEX128.halCode()).hasValue(0x23000080);
    assertThat(ElementType.F8E5M2.halCode()).hasValue(0x24000008);
    assertThat(ElementType.F8E4M3FN.halCode()).hasValue(0x25000008);
    assertThat(ElementType.F8E5M2FNUZ.halCode()).hasValue(0x26000008);
    assertThat(ElementType.F8E4M3FNUZ.halCode()).hasValue(0x27000008);
    assertThat(ElementType.F8E8M0FNU.halCode()).hasValue(0x28000008);
    assertThat(ElementType.UNKNOWN.halCode()).isEmpty();
    assertThat(ElementType.integer(256).halCode()).isEmpty();
  }

  @Test
  void fromHalCodeInvertsHalCode() {
    ElementType[] all = {
      ElementType.I1,
      ElementType.I8,
      ElementType.I16,
      ElementType.I32,
      ElementType.I64,
      ElementType.SI8,
      ElementType.SI16,
      ElementType.SI32,
      ElementType.SI64,
      ElementType.UI8,
      ElementType.UI16,
      ElementType.UI32,
      ElementType.UI64,
      ElementType.F16,
      ElementType.F32,
      ElementType.F64,
      ElementType.BF16,
      ElementType.COMPLEX64,
      ElementType.COMPLEX128,
      ElementType.F8E5M2,
      ElementType.F8E4M3FN,
      ElementType.F8E5M2FNUZ,
      ElementType.F8E4M3FNUZ,
      ElementType.F8E8M0FNU
    };
    for (ElementType e : all) {
      assertThat(ElementType.fromHalCode(e.halCode().get())).isEqualTo(Optional.of(e));
    }
    assertThat(ElementType.fromHalCode(0x00000008)).isEmpty(); // opaque 8
    assertThat(ElementType.fromHalCode(0)).isEmpty(); // none
    assertThat(ElementType.fromHalCode(0x21000018)).isEmpty(); // no 24-bit IEEE float
  }

  @Test
  void spellings() {
    assertThat(ElementType.UI16.mlirName()).isEqualTo("ui16");
    assertThat(ElementType.UI16.abiJsonName()).isEqualTo("i16");
    assertThat(ElementType.SI64.abiJsonName()).isEqualTo("i64");
    assertThat(ElementType.BF16.abiJsonName()).isEqualTo("bf16");
    assertThat(ElementType.F8E4M3FNUZ.abiJsonName()).isEqualTo("f8");
    assertThat(ElementType.complex(ElementType.F32)).isSameInstanceAs(ElementType.COMPLEX64);
    assertThat(ElementType.complex(ElementType.F16).mlirName()).isEqualTo("complex<f16>");
    assertThat(ElementType.COMPLEX64.abiJsonName()).isEqualTo("unknown");
    assertThat(ElementType.INDEX.abiJsonName()).isEqualTo("unknown");
    assertThat(ElementType.otherFloat("f8E4M3", 8).halCode()).hasValue(0x00000008);
  }

  @Test
  void valueEquality() {
    assertThat(ElementType.integer(32)).isEqualTo(ElementType.I32);
    assertThat(ElementType.integer(1)).isSameInstanceAs(ElementType.I1);
    assertThat(ElementType.signedInteger(32)).isEqualTo(ElementType.SI32);
    assertThat(ElementType.I32).isNotEqualTo(ElementType.SI32);
    assertThat(ElementType.I32.hashCode()).isEqualTo(ElementType.integer(32).hashCode());
  }

  @Test
  void widthsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> ElementType.integer(0));
    assertThrows(IllegalArgumentException.class, () -> ElementType.integer(1 << 24));
    assertThrows(IllegalArgumentException.class, () -> ElementType.complex(ElementType.I32));
  }

  @Test
  void commonWidthsAreTheConstantsAndTheirHalCodesShareOneOptional() {
    assertThat(ElementType.signedInteger(32)).isSameInstanceAs(ElementType.SI32);
    assertThat(ElementType.unsignedInteger(8)).isSameInstanceAs(ElementType.UI8);
    assertThat(ElementType.signedInteger(24).mlirName()).isEqualTo("si24");
    assertThat(ElementType.unsignedInteger(3).mlirName()).isEqualTo("ui3");
    // Buffer views ask for their element type on every call: the common codes allocate nothing.
    assertThat(ElementType.fromHalCode(0x21000020))
        .isSameInstanceAs(ElementType.fromHalCode(0x21000020));
    assertThat(ElementType.fromHalCode(0x11000010)).hasValue(ElementType.SI16);
    assertThat(ElementType.fromHalCode(0x10000003)).hasValue(ElementType.integer(3));
  }

  // ---------------------------------------------------------------------------------------------
  // accepts: which arrays may stand where a type is declared

  @Test
  void everyTypeAcceptsItself() {
    for (ElementType t :
        List.of(
            ElementType.I1,
            ElementType.I8,
            ElementType.SI16,
            ElementType.UI32,
            ElementType.F16,
            ElementType.BF16,
            ElementType.F32,
            ElementType.F64,
            ElementType.INDEX,
            ElementType.COMPLEX64,
            ElementType.F8E4M3FN)) {
      assertThat(t.accepts(t)).isTrue();
    }
  }

  @Test
  void signlessIntegersAcceptEitherSignednessOfTheSameWidth() {
    // The iree.abi JSON drops signedness: a declared i32 may be fed si32 or ui32 data.
    assertThat(ElementType.I32.accepts(ElementType.SI32)).isTrue();
    assertThat(ElementType.I32.accepts(ElementType.UI32)).isTrue();
    assertThat(ElementType.SI32.accepts(ElementType.I32)).isTrue();
    assertThat(ElementType.UI8.accepts(ElementType.I8)).isTrue();
    // Signed and unsigned never match each other.
    assertThat(ElementType.SI32.accepts(ElementType.UI32)).isFalse();
    assertThat(ElementType.UI16.accepts(ElementType.SI16)).isFalse();
    // Widths must agree.
    assertThat(ElementType.I32.accepts(ElementType.I64)).isFalse();
    assertThat(ElementType.I32.accepts(ElementType.SI16)).isFalse();
  }

  @Test
  void indexIsASignless64BitInteger() {
    assertThat(ElementType.INDEX.accepts(ElementType.I64)).isTrue();
    assertThat(ElementType.INDEX.accepts(ElementType.SI64)).isTrue();
    assertThat(ElementType.INDEX.accepts(ElementType.UI64)).isTrue();
    assertThat(ElementType.SI64.accepts(ElementType.INDEX)).isTrue();
    assertThat(ElementType.INDEX.accepts(ElementType.I32)).isFalse();
  }

  @Test
  void unknownDeclaredTypesAcceptAnything() {
    assertThat(ElementType.UNKNOWN.accepts(ElementType.F32)).isTrue();
    assertThat(ElementType.UNKNOWN.accepts(ElementType.I1)).isTrue();
    // Not the other way round.
    assertThat(ElementType.F32.accepts(ElementType.UNKNOWN)).isFalse();
  }

  @Test
  void i1IsStoredAsAnyEightBitInteger() {
    // IREE stores i1 tensors in bytes and may type an i1 result i8 or ui8 (issue 19).
    for (ElementType bytes : List.of(ElementType.I8, ElementType.SI8, ElementType.UI8)) {
      assertThat(ElementType.I1.accepts(bytes)).isTrue();
      assertThat(bytes.accepts(ElementType.I1)).isTrue();
    }
    // Signed and unsigned bytes still do not match each other.
    assertThat(ElementType.SI8.accepts(ElementType.UI8)).isFalse();
  }

  @Test
  void otherKindsDoNotMix() {
    assertThat(ElementType.F16.accepts(ElementType.BF16)).isFalse();
    assertThat(ElementType.BF16.accepts(ElementType.F16)).isFalse();
    assertThat(ElementType.F32.accepts(ElementType.I32)).isFalse();
    assertThat(ElementType.I32.accepts(ElementType.F32)).isFalse();
    assertThat(ElementType.F32.accepts(ElementType.F64)).isFalse();
    assertThat(ElementType.I1.accepts(ElementType.I16)).isFalse();
    assertThat(ElementType.I1.accepts(ElementType.F16)).isFalse();
    assertThat(ElementType.COMPLEX64.accepts(ElementType.F32)).isFalse();
    assertThrows(NullPointerException.class, () -> ElementType.F32.accepts(null));
  }
}
