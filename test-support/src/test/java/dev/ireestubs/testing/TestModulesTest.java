package dev.ireestubs.testing;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.testing.TestModules.Schema;
import org.junit.jupiter.api.Test;

/** A spec the writer cannot honour says what to change, instead of failing on arithmetic. */
class TestModulesTest {

  @Test
  void everySchemasTypicalModuleIsWritten() {
    for (Schema schema : Schema.values()) {
      assertThat(TestModules.typical(schema).bare().length).isGreaterThan(0);
    }
  }

  @Test
  void aDefaultBodyNeedsARegisterOfEachKindItReturns() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TestModules.typical(Schema.S2023).registers(16, 0).bare());
    assertThat(e).hasMessageThat().contains("returns a ref register, but the spec has 0 ref");
  }

  @Test
  void importsComeInPairs() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TestModules.spec().imports("hal.buffer_view.assert", "0rriCID_v", "hal.x"));
    assertThat(e).hasMessageThat().contains("got 3 strings");
  }
}
