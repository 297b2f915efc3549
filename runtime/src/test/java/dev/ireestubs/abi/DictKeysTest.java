package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The one rule matching sdict keys to Java names, used by the processor, invoker and inspect. */
class DictKeysTest {

  @Test
  void camelCaseOfSnakeCaseKeys() {
    assertThat(AbiType.Dict.camelCase("class_ids")).isEqualTo("classIds");
    assertThat(AbiType.Dict.camelCase("last_hidden_state")).isEqualTo("lastHiddenState");
    assertThat(AbiType.Dict.camelCase("label")).isEqualTo("label");
    assertThat(AbiType.Dict.camelCase("plain")).isEqualTo("plain");
    assertThat(AbiType.Dict.camelCase("_private")).isEqualTo("_private");
    assertThat(AbiType.Dict.camelCase("_x_y")).isEqualTo("_xY");
    assertThat(AbiType.Dict.camelCase("a__b")).isEqualTo("aB");
  }
}
