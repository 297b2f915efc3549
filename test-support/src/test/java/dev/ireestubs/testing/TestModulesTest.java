package dev.ireestubs.testing;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.testing.TestModules.Schema;
import java.nio.charset.StandardCharsets;
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

  @Test
  void theSchemaPicksTheIdentifierWhateverTheOrder() {
    byte[] bmod = TestModules.spec().schema(Schema.S2019).bare();
    byte[] iree = TestModules.spec().schema(Schema.S2019).schema(Schema.S2021).bare();
    assertThat(new String(bmod, 4, 4, StandardCharsets.US_ASCII)).isEqualTo("BMOD");
    assertThat(new String(iree, 4, 4, StandardCharsets.US_ASCII)).isEqualTo("IREE");
    byte[] set = TestModules.spec().identifier("XXXX").schema(Schema.S2019).bare();
    assertThat(new String(set, 4, 4, StandardCharsets.US_ASCII)).isEqualTo("XXXX");
  }

  @Test
  void aVersionIsAUint32() {
    assertThrows(IllegalArgumentException.class, () -> TestModules.spec().version(1L << 32));
    assertThrows(IllegalArgumentException.class, () -> TestModules.spec().version(-1));
    assertThat(TestModules.spec().version(0xFFFF_FFFFL).bare().length).isGreaterThan(0);
  }

  @Test
  void javaZipsOfTheSameArgumentsAreTheSameBytes() throws InterruptedException {
    byte[] module = TestModules.typical(Schema.S2023).sizePrefixed();
    byte[] first = TestModules.javaZip(module, true, "a.txt");
    Thread.sleep(2_100); // past a DOS time tick (2 s)
    assertThat(TestModules.javaZip(module, true, "a.txt")).isEqualTo(first);
  }
}
