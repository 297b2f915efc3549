package dev.ireestubs.processor.names;

import static com.google.common.truth.Truth.assertThat;

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
