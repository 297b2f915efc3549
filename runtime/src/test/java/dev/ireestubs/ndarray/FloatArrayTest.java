package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.ElementType;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

/** {@link FloatArray}: what is particular to f32 (shared behaviour is in {@link AllArraysTest}). */
class FloatArrayTest {

  @Test
  void holdsF32InNativeOrder() {
    FloatArray a = FloatArray.of(new float[] {1.5f, -2f, 3.25f}, 3);
    assertThat(a.elementType()).isEqualTo(ElementType.F32);
    assertThat(a.halElementType()).isEqualTo(0x21000020);
    assertThat(a.data().order()).isEqualTo(ByteOrder.nativeOrder());
    assertThat(a.data().getFloat(4)).isEqualTo(-2f);
    assertThat(Float.intBitsToFloat(a.data().getInt(8))).isEqualTo(3.25f);
  }

  @Test
  void specialValuesRoundTrip() {
    float[] values = {
      0f,
      -0f,
      Float.MIN_VALUE,
      Float.MIN_NORMAL,
      Float.MAX_VALUE,
      Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY,
      Float.NaN
    };
    FloatArray a = FloatArray.of(values);
    assertThat(a.toArray()).usingExactEquality().containsExactly(values).inOrder();
    assertThat(Float.floatToRawIntBits(a.get(1))).isEqualTo(0x80000000);
    assertThat(a.get(7)).isNaN();
  }

  @Test
  void nansAreEqualAndSignedZerosAreNot() {
    FloatArray nan = FloatArray.of(new float[] {Float.NaN});
    FloatArray otherNan = FloatArray.of(new float[] {Float.intBitsToFloat(0x7fc00123)});
    assertThat(otherNan).isEqualTo(nan);
    assertThat(otherNan.hashCode()).isEqualTo(nan.hashCode());
    assertThat(FloatArray.of(new float[] {-0f})).isNotEqualTo(FloatArray.of(new float[] {0f}));
    assertThat(FloatArray.scalar(1f)).isNotEqualTo(DoubleArray.scalar(1.0));
  }

  @Test
  void asFloatBufferSharesMemory() {
    FloatArray a = FloatArray.zeros(2, 2);
    FloatBuffer view = a.asFloatBuffer();
    assertThat(view.capacity()).isEqualTo(4);
    assertThat(view.position()).isEqualTo(0);
    view.put(3, 9f);
    assertThat(a.get(1, 1)).isEqualTo(9f);
    a.set(7f, 0, 1);
    assertThat(view.get(1)).isEqualTo(7f);
    // A view of a slice covers only the slice.
    assertThat(a.select(1).asFloatBuffer().get(1)).isEqualTo(9f);
    assertThat(a.select(1).asFloatBuffer().capacity()).isEqualTo(2);
  }

  @Test
  void nestedRoundTrip() {
    float[][][] data = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}};
    FloatArray a = FloatArray.of(data);
    assertThat(a.shape()).isEqualTo(new long[] {3, 2, 2});
    assertThat(a.toArray3D()).isEqualTo(data);
    assertThat(a.reshape(6, 2).toArray2D()[5]).isEqualTo(new float[] {11, 12});
    // The copy out is independent.
    float[][][] out = a.toArray3D();
    out[0][0][0] = 100;
    assertThat(a.get(0, 0, 0)).isEqualTo(1f);
  }

  @Test
  void toStringPrintsFloats() {
    assertThat(FloatArray.of(new float[][] {{1, 2.5f, 3}, {4, 5, Float.NaN}}).toString())
        .isEqualTo("FloatArray<2x3xf32> [[1.0, 2.5, 3.0], [4.0, 5.0, NaN]]");
    assertThat(FloatArray.scalar(1.5f).toString()).isEqualTo("FloatArray<f32> 1.5");
  }
}
