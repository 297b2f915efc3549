package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import org.junit.jupiter.api.Test;

class FunctionConstantsTest {

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
}
