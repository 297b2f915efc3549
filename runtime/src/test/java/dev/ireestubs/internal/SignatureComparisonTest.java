package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import org.junit.jupiter.api.Test;

class SignatureComparisonTest {

  private static FunctionSignature json(String s) {
    return AbiJson.parseFunction(s);
  }

  private static FunctionSignature decl(String s) {
    return Declaration.parse(s).toSignature();
  }

  @Test
  void aSignatureAgreesWithItself() {
    FunctionSignature s =
        json(
            "{\"a\":[[\"sdict\",[\"a\",\"i32\"]],[\"ndarray\",\"f32\",2,null,4]],\"r\":[\"i64\"]}");
    assertThat(SignatureComparison.differences(s, s)).isEmpty();
  }

  @Test
  void jsonAgreesWithTheDeclarationOfTheSameFunction() {
    FunctionSignature j =
        json(
            "{\"a\":[[\"ndarray\",\"i32\",1,4],[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]]}");
    FunctionSignature d =
        decl(
            "sync func @f(%input0: tensor<4xsi32>, %input1: tensor<?xf32>) -> (%output0: tensor<4xf32>)");
    assertThat(SignatureComparison.differences(j, d)).isEmpty();
  }

  @Test
  void differencesNameTheSlotAndBothSides() {
    FunctionSignature j =
        json("{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]]}");
    FunctionSignature d = decl("sync func @f(%input0: tensor<5xf32>) -> (%output0: tensor<4xf64>)");
    assertThat(SignatureComparison.differences(j, d))
        .containsExactly(
            "argument 0: expected tensor<4xf32> but the module's function has tensor<5xf32>",
            "result 0: expected tensor<4xf32> but the module's function has tensor<4xf64>")
        .inOrder();
    FunctionSignature two = json("{\"a\":[\"i32\",\"i32\"],\"r\":[]}");
    FunctionSignature one = json("{\"a\":[\"i32\"],\"r\":[]}");
    assertThat(SignatureComparison.differences(two, one))
        .containsExactly("expected 2 arguments but the module's function has 1");
  }

  @Test
  void sdictKeysAreComparedButNamesAreNot() {
    FunctionSignature a =
        json("{\"a\":[[\"named\",\"x\",[\"sdict\",[\"a\",\"i32\"],[\"b\",\"i32\"]]]],\"r\":[]}");
    FunctionSignature b =
        json("{\"a\":[[\"named\",\"y\",[\"sdict\",[\"a\",\"i32\"],[\"c\",\"i32\"]]]],\"r\":[]}");
    assertThat(SignatureComparison.differences(a, b))
        .containsExactly("argument 0: expected the keys [a, b] but the module's are [a, c]");
  }

  @Test
  void aVariantListMatchesAnyStructure() {
    FunctionSignature j = json("{\"a\":[[\"sdict\",[\"a\",\"i32\"]]],\"r\":[]}");
    FunctionSignature d = decl("sync func @f(%input0: !util.list<?>)");
    assertThat(SignatureComparison.differences(j, d)).isEmpty();
  }

  @Test
  void theCallingModelIsCompared() {
    FunctionSignature s = json("{\"a\":[],\"r\":[]}");
    assertThat(
            SignatureComparison.differences(
                s, s.withModel(FunctionSignature.CallingModel.COARSE_FENCES)))
        .hasSize(1);
  }

  @Test
  void indexMatchesThe32Or64BitIntegerOfTheTarget() {
    FunctionSignature index = decl("sync func @f(%input0: index) -> (%output0: index)");
    assertThat(SignatureComparison.differences(index, json("{\"a\":[\"i32\"],\"r\":[\"i64\"]}")))
        .isEmpty();
    assertThat(SignatureComparison.differences(index, json("{\"a\":[\"i16\"],\"r\":[\"f32\"]}")))
        .hasSize(2);
    assertThat(CallingConvention.parse("0i_I").mismatches(index)).isEmpty();
    assertThat(CallingConvention.parse("0I_i").mismatches(index)).isEmpty();
    assertThat(CallingConvention.parse("0f_I").mismatches(index)).hasSize(1);
  }
}
