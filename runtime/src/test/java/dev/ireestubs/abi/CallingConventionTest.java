package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType.NdArray;
import dev.ireestubs.abi.AbiType.Scalar;
import dev.ireestubs.abi.CallingConvention.Single;
import dev.ireestubs.abi.CallingConvention.Variadic;
import dev.ireestubs.abi.FunctionSignature.CallingModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallingConventionTest {

  private static final NdArray F32_4 = new NdArray(ElementType.F32, Shape.of(4));

  private static FunctionSignature sig(List<AbiType> args, List<AbiType> results) {
    return FunctionSignature.of(args, results, ReflectionFormat.DECLARATION);
  }

  private static void assertError(String text, int offset, String detailFragment) {
    AbiParseException e =
        assertThrows(AbiParseException.class, () -> CallingConvention.parse(text));
    assertThat(e.format()).isEqualTo(ReflectionFormat.CALLING_CONVENTION);
    assertThat(e.position()).isEqualTo("offset " + offset);
    assertThat(e.detail()).contains(detailFragment);
  }

  @Test
  void fixedConventions() {
    CallingConvention c = CallingConvention.parse("0rr_r");
    assertThat(c.arguments())
        .containsExactly(new Single(VmKind.REF), new Single(VmKind.REF))
        .inOrder();
    assertThat(c.results()).containsExactly(VmKind.REF);
    assertThat(c.arity()).isEqualTo(2);
    assertThat(c.isVariadic()).isFalse();
    assertThat(c.toString()).isEqualTo("0rr_r");

    CallingConvention mixed = CallingConvention.parse("0iIfFr_FfIi");
    assertThat(mixed.argumentKinds())
        .containsExactly(VmKind.I32, VmKind.I64, VmKind.F32, VmKind.F64, VmKind.REF)
        .inOrder();
    assertThat(mixed.resultKinds())
        .containsExactly(VmKind.F64, VmKind.F32, VmKind.I64, VmKind.I32)
        .inOrder();
    assertThat(mixed.toString()).isEqualTo("0iIfFr_FfIi");
    assertThat(CallingConvention.parse("0iI_f"))
        .isEqualTo(CallingConvention.of(List.of(VmKind.I32, VmKind.I64), List.of(VmKind.F32)));
  }

  @Test
  void voidSides() {
    CallingConvention none = CallingConvention.parse("0v_v");
    assertThat(none.arguments()).isEmpty();
    assertThat(none.results()).isEmpty();
    assertThat(none.arity()).isEqualTo(0);
    assertThat(none.toString()).isEqualTo("0v_v");
    assertThat(CallingConvention.parse("0v_r").toString()).isEqualTo("0v_r");
    assertThat(CallingConvention.parse("0r_v").results()).isEmpty();
    assertThat(CallingConvention.of(List.of(), List.of()).toString()).isEqualTo("0v_v");
  }

  @Test
  void variadicSegments() {
    CallingConvention c = CallingConvention.parse("0iCiD_i");
    assertThat(c.arguments())
        .containsExactly(new Single(VmKind.I32), new Variadic(List.of(VmKind.I32)))
        .inOrder();
    assertThat(c.isVariadic()).isTrue();
    assertThat(c.arity()).isEqualTo(1);
    assertThat(c.argumentKinds()).containsExactly(VmKind.I32);
    assertThat(c.toString()).isEqualTo("0iCiD_i");

    CallingConvention refs = CallingConvention.parse("0rCrrD_v");
    assertThat(refs.arguments())
        .containsExactly(new Single(VmKind.REF), new Variadic(List.of(VmKind.REF, VmKind.REF)))
        .inOrder();
    assertThat(refs.results()).isEmpty();
    assertThat(refs.toString()).isEqualTo("0rCrrD_v");

    CallingConvention two = CallingConvention.parse("0CiDrCIfD_r");
    assertThat(two.arguments()).hasSize(3);
    assertThat(two.arity()).isEqualTo(1);
    assertThat(two.toString()).isEqualTo("0CiDrCIfD_r");
    assertThat(CallingConvention.parse("0CrD_v").arity()).isEqualTo(0);

    assertThrows(IllegalArgumentException.class, () -> new Variadic(List.of()));
  }

  @Test
  void errorsNameTheOffset() {
    assertError("", 0, "expected the version '0', found an empty string");
    assertError(
        "1rr_r",
        0,
        "expected the version '0' (the only calling-convention version IREE defines), found '1'");
    assertError("rr_r", 0, "found 'r'");
    assertError(
        "0",
        1,
        "expected argument kinds (i, I, f, F, r) or 'v' for none, found the end of the text");
    assertError("0_r", 1, "expected argument kinds (i, I, f, F, r) or 'v' for none, found '_'");
    assertError("0rx_r", 2, "expected an argument kind (i, I, f, F, r, C, D), found 'x'");
    assertError(
        "0rr", 3, "expected '_' between the argument and result kinds, found the end of the text");
    assertError(
        "0r_",
        3,
        "expected result kinds (i, I, f, F, r) or 'v' for none, found the end of the text");
    assertError("0r_x", 3, "expected a result kind (i, I, f, F, r), found 'x'");
    assertError("0r_r_", 4, "found '_'");
    assertError("0r_r\n", 4, "found character U+000A");
    assertError("0vr_r", 2, "'v' means no arguments and stands alone, found 'r' after it");
    assertError("0rv_r", 2, "'v' means no arguments and stands alone");
    assertError("0r_vv", 4, "'v' means no results and stands alone");
    assertError(
        "0rCr_r", 4, "expected 'D' to close the variadic segment opened at offset 2, found '_'");
    assertError(
        "0rCr",
        4,
        "expected 'D' to close the variadic segment opened at offset 2, found the end of the text");
    assertError("0rD_r", 2, "found 'D' with no open variadic segment 'C'");
    assertError(
        "0CrCrDD_v",
        3,
        "variadic segments do not nest: found 'C' inside the one opened at offset 1");
    assertError(
        "0CD_v",
        2,
        "expected at least one kind in the variadic segment opened at offset 1, found 'D'");
    assertError("0r_rCrD", 4, "variadic segments 'C...D' occur only among arguments");
    assertError("0r_D", 3, "expected a result kind");
  }

  @Test
  void toSignatureMapsEachKind() {
    FunctionSignature s = CallingConvention.parse("0iIfFr_I").toSignature();
    assertThat(s.format()).isEqualTo(ReflectionFormat.CALLING_CONVENTION);
    assertThat(s.model()).isEqualTo(CallingModel.SYNC);
    assertThat(s.arguments())
        .containsExactly(
            new Scalar(ElementType.I32),
            new Scalar(ElementType.I64),
            new Scalar(ElementType.F32),
            new Scalar(ElementType.F64),
            AbiType.Ref.any())
        .inOrder();
    assertThat(s.results()).containsExactly(new Scalar(ElementType.I64));
    assertThat(CallingConvention.parse("0v_v").toSignature().arguments()).isEmpty();
  }

  @Test
  void variadicConventionsHaveNoSignature() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> CallingConvention.parse("0rCrrD_v").toSignature());
    assertThat(e).hasMessageThat().contains("0rCrrD_v has a variadic segment C...D (imports only)");
    assertThat(CallingConvention.parse("0rCrrD_v").mismatches(sig(List.of(), List.of())))
        .containsExactly(
            "the calling convention 0rCrrD_v is variadic (C...D, imports only); no reflection"
                + " signature describes a variadic function");
  }

  @Test
  void everyFixedConventionSurvivesTheSignatureRoundTrip() {
    for (String text : List.of("0v_v", "0rr_r", "0iI_f", "0rrr_rr", "0F_v", "0v_iIfFr")) {
      CallingConvention c = CallingConvention.parse(text);
      assertThat(CallingConvention.expectedFor(c.toSignature())).hasValue(c);
      assertThat(c.mismatches(c.toSignature())).isEmpty();
    }
  }

  @Test
  void expectedConventionOfASignature() {
    FunctionSignature s =
        sig(
            List.of(F32_4, new Scalar(ElementType.I64), new Scalar(ElementType.I8)),
            List.of(new Scalar(ElementType.INDEX), new Scalar(ElementType.I1)));
    assertThat(CallingConvention.expectedFor(s).map(Object::toString)).hasValue("0rIi_Ii");
    assertThat(
            CallingConvention.expectedFor(s.withModel(CallingModel.COARSE_FENCES))
                .map(Object::toString))
        .hasValue("0rIirr_Ii");
    assertThat(CallingConvention.expectedFor(sig(List.of(), List.of())).map(Object::toString))
        .hasValue("0v_v");
    // f16 scalars and any-typed values have no single VM kind.
    assertThat(CallingConvention.expectedFor(sig(List.of(new Scalar(ElementType.F16)), List.of())))
        .isEmpty();
    assertThat(CallingConvention.expectedFor(sig(List.of(), List.of(new AbiType.Any())))).isEmpty();
  }

  @Test
  void mismatchesAreReadable() {
    CallingConvention rr = CallingConvention.parse("0rr_r");
    assertThat(rr.mismatches(sig(List.of(F32_4, new Scalar(ElementType.I64)), List.of(F32_4))))
        .containsExactly("argument 1: the reflection says i64 (cconv I) but the function takes r");
    assertThat(rr.matches(sig(List.of(F32_4, F32_4), List.of(F32_4)))).isTrue();
    assertThat(rr.mismatches(sig(List.of(F32_4), List.of(F32_4))))
        .containsExactly(
            "the reflection describes 1 argument but the calling convention 0rr_r takes 2");
    assertThat(rr.mismatches(sig(List.of(F32_4, F32_4), List.of())))
        .containsExactly(
            "the reflection describes 0 results but the calling convention 0rr_r returns 1");
    assertThat(
            CallingConvention.parse("0rr_f")
                .mismatches(sig(List.of(F32_4, F32_4), List.of(new Scalar(ElementType.INDEX)))))
        .containsExactly(
            "result 0: the reflection says index (cconv I) but the function returns f");
    // A module compiled with 32-bit index returns index as i.
    assertThat(
            CallingConvention.parse("0rr_i")
                .mismatches(sig(List.of(F32_4, F32_4), List.of(new Scalar(ElementType.INDEX)))))
        .isEmpty();
    assertThat(
            CallingConvention.parse("0rr_I")
                .mismatches(sig(List.of(F32_4, F32_4), List.of(new Scalar(ElementType.INDEX)))))
        .isEmpty();
  }

  @Test
  void coarseFencesAddTwoRefArguments() {
    FunctionSignature async =
        sig(List.of(F32_4), List.of(F32_4)).withModel(CallingModel.COARSE_FENCES);
    assertThat(CallingConvention.parse("0rrr_r").mismatches(async)).isEmpty();
    assertThat(CallingConvention.parse("0r_r").mismatches(async))
        .containsExactly(
            "the reflection describes 3 arguments (1 declared + the wait and signal fences of"
                + " coarse-fences) but the calling convention 0r_r takes 1");
    assertThat(CallingConvention.parse("0rri_r").mismatches(async))
        .containsExactly(
            "argument 2 (the signal fence): the reflection says !hal.fence (cconv r) but the"
                + " function takes i");
    assertThat(CallingConvention.parse("0rir_r").mismatches(async))
        .containsExactly(
            "argument 1 (the wait fence): the reflection says !hal.fence (cconv r) but the"
                + " function takes i");
  }

  @Test
  void slotsWithoutAKindAreNotChecked() {
    AbiType odd =
        new AbiType.Unsupported(
            "memref", "memref<4xf32>", ReflectionFormat.DECLARATION, "memref types do not cross");
    assertThat(
            CallingConvention.parse("0i_f")
                .mismatches(sig(List.of(odd), List.of(new Scalar(ElementType.F16)))))
        .isEmpty();
  }

  @Test
  void inlinedResultsAreCheckedAsRawResults() {
    FunctionSignature json =
        AbiJson.parseFunction("{\"a\":[],\"r\":[[\"slist\",\"i32\",\"f64\"]]}");
    assertThat(CallingConvention.parse("0v_iF").mismatches(json)).isEmpty();
    assertThat(CallingConvention.parse("0v_r").mismatches(json))
        .containsExactly(
            "the reflection describes 2 results (the inlined children of its one result) but the"
                + " calling convention 0v_r returns 1",
            "result 0: the reflection says i32 (cconv i) but the function returns r");
  }
}
