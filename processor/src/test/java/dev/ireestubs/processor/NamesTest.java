package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamesTest {

  @Test
  void typeNames() {
    assertThat(Names.typeName("features")).isEqualTo("Features");
    assertThat(Names.typeName("class_ids")).isEqualTo("ClassIds");
    assertThat(Names.typeName("boxes:0")).isEqualTo("Boxes0");
    assertThat(Names.typeName("::")).isEqualTo("Value");
  }

  @Test
  void arrayDescriptorConstantsAreNamedForWhatTheyHold() {
    assertThat(name(ElementType.F32, Shape.of(1, 3))).isEqualTo("F32_1X3");
    assertThat(name(ElementType.I32, Shape.of(1, Shape.DYNAMIC))).isEqualTo("I32_1XDYN");
    assertThat(name(ElementType.I64, Shape.scalar())).isEqualTo("I64_RANK0");
    assertThat(name(ElementType.F16, Shape.unranked())).isEqualTo("F16_UNRANKED");
    assertThat(name(ElementType.COMPLEX64, Shape.of(2))).isEqualTo("COMPLEX_F32_2");
    // A rank too long to spell stays a short identifier; the name allocator makes it unique.
    assertThat(name(ElementType.UI8, Shape.dynamic(20_000))).isEqualTo("UI8_RANK20000");
  }

  private static String name(ElementType element, Shape shape) {
    return FunctionConstants.arrayName(new AbiType.NdArray(element, shape));
  }

  @Test
  void javaNames() {
    assertThat(Names.isJavaName("tokens")).isTrue();
    assertThat(Names.isJavaName("class")).isFalse();
    assertThat(Names.isJavaName("x:0")).isFalse();
    assertThat(Names.isJavaName("")).isFalse();
  }

  @Test
  void editDistanceCountsSwapsAsOne() {
    assertThat(Names.editDistance("label", "label")).isEqualTo(0);
    assertThat(Names.editDistance("lable", "label")).isEqualTo(1);
    assertThat(Names.editDistance("predcit", "predict")).isEqualTo(1);
    assertThat(Names.editDistance("", "abc")).isEqualTo(3);
    assertThat(Names.editDistance("kitten", "sitting")).isEqualTo(3);
  }

  @Test
  void nearestSuggestsOnlyLikelyMisspellings() {
    List<String> keys = List.of("class_ids", "image", "label");
    assertThat(Names.nearest("clasIds", keys)).hasValue("class_ids");
    assertThat(Names.nearest("ClassIds", keys)).hasValue("class_ids");
    assertThat(Names.nearest("lable", keys)).hasValue("label");
    assertThat(Names.nearest("img", keys)).hasValue("image");
    assertThat(Names.nearest("size", keys)).isEmpty();
    assertThat(Names.nearest("extra", keys)).isEmpty();
    // One letter against another is a rewrite, not a misspelling.
    assertThat(Names.nearest("x", List.of("a", "b"))).isEmpty();
    assertThat(Names.nearest("anything", List.of())).isEmpty();
  }
}
