package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.ElementType;
import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link DoubleArray}: what is particular to f64 (shared behaviour is in {@link AllArraysTest}).
 */
class DoubleArrayTest {

  @Test
  void holdsF64InNativeOrder() {
    DoubleArray a = DoubleArray.of(new double[] {1.5, -1e300, Math.PI});
    assertThat(a.elementType()).isEqualTo(ElementType.F64);
    assertThat(a.halElementType()).isEqualTo(0x21000040);
    assertThat(a.byteLength()).isEqualTo(24);
    assertThat(a.data().getDouble(8)).isEqualTo(-1e300);
    assertThat(a.get(2)).isEqualTo(Math.PI);
  }

  @Test
  void keepsFullDoublePrecision() {
    double tiny = Double.MIN_VALUE;
    double notAFloat = 1.0 + 0x1p-52;
    DoubleArray a = DoubleArray.of(new double[] {tiny, notAFloat, Double.MAX_VALUE, -0.0});
    assertThat(a.toArray())
        .usingExactEquality()
        .containsExactly(tiny, notAFloat, Double.MAX_VALUE, -0.0)
        .inOrder();
  }

  @Test
  void nansAreEqualAndSignedZerosAreNot() {
    DoubleArray nan = DoubleArray.of(new double[] {Double.NaN});
    DoubleArray otherNan =
        DoubleArray.of(new double[] {Double.longBitsToDouble(0x7ff8000000000123L)});
    assertThat(otherNan).isEqualTo(nan);
    assertThat(otherNan.hashCode()).isEqualTo(nan.hashCode());
    assertThat(DoubleArray.scalar(-0.0)).isNotEqualTo(DoubleArray.scalar(0.0));
  }

  @Test
  void asDoubleBufferSharesMemory() {
    DoubleArray a = DoubleArray.zeros(3);
    DoubleBuffer view = a.asDoubleBuffer();
    view.put(2, 2.5);
    assertThat(a.get(2)).isEqualTo(2.5);
    a.setFlat(4.5, 0);
    assertThat(view.get(0)).isEqualTo(4.5);
  }

  @Test
  void nestedRoundTripAndToString() {
    double[][] data = {{1, 2}, {3, 4}};
    assertThat(DoubleArray.of(data).toArray2D()).isEqualTo(data);
    assertThat(DoubleArray.of(data).toString())
        .isEqualTo("DoubleArray<2x2xf64> [[1.0, 2.0], [3.0, 4.0]]");
  }
}
