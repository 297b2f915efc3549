package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

class IreeStatusCodeTest {

  @Test
  void codeIsTheLowFiveBitsOfTheStatusPointer() {
    assertThat(IreeStatusCode.codeOf(0L)).isEqualTo(0);
    // A heap status: 32-byte aligned storage with the code in the low bits.
    assertThat(IreeStatusCode.codeOf(0x7f3a_2c00_1e40L | 3)).isEqualTo(3);
    assertThat(IreeStatusCode.codeOf(0x7f3a_2c00_1e40L | 18)).isEqualTo(18);
    assertThat(IreeStatusCode.codeOf(0x7f3a_2c00_1e40L | 31)).isEqualTo(31);
    // A code-only status (no payload) is just the code.
    assertThat(IreeStatusCode.codeOf(11L)).isEqualTo(11);
  }

  @Test
  void codesAreNumberedAsInIree() {
    IreeStatusCode[] all = IreeStatusCode.values();
    assertThat(all).hasLength(19);
    for (int i = 0; i < all.length; i++) {
      assertThat(all[i].code()).isEqualTo(i);
      assertThat(IreeStatusCode.fromCode(i)).hasValue(all[i]);
    }
    assertThat(IreeStatusCode.INVALID_ARGUMENT.code()).isEqualTo(3);
    assertThat(IreeStatusCode.NOT_FOUND.code()).isEqualTo(5);
    assertThat(IreeStatusCode.FAILED_PRECONDITION.code()).isEqualTo(9);
    assertThat(IreeStatusCode.OUT_OF_RANGE.code()).isEqualTo(11);
    assertThat(IreeStatusCode.INTERNAL.code()).isEqualTo(13);
    assertThat(IreeStatusCode.INCOMPATIBLE.code()).isEqualTo(18);
    assertThat(IreeStatusCode.fromCode(19)).isEmpty();
  }

  @Test
  void describeNamesKnownAndUnknownCodes() {
    assertThat(IreeStatusCode.describe(9)).isEqualTo("FAILED_PRECONDITION");
    assertThat(IreeStatusCode.describe(25)).isEqualTo("status 25");
  }
}
