package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ShapeTest {
  @Test
  void printsLikeMlir() {
    assertThat(Shape.of(2, Shape.DYNAMIC, 3).toString()).isEqualTo("2x?x3");
    assertThat(Shape.scalar().toString()).isEmpty();
    assertThat(Shape.unranked().toString()).isEqualTo("*");
  }

  @Test
  void acceptsConcreteShapes() {
    Shape s = Shape.of(Shape.DYNAMIC, 3);
    assertThat(s.accepts(new long[] {7, 3})).isTrue();
    assertThat(s.accepts(new long[] {7, 4})).isFalse();
    assertThat(s.accepts(new long[] {3})).isFalse();
    assertThat(Shape.unranked().accepts(new long[] {1, 2, 3})).isTrue();
    assertThat(Shape.scalar().accepts(new long[0])).isTrue();
  }

  @Test
  void counts() {
    assertThat(Shape.of(2, 3, 4).elementCount()).isEqualTo(OptionalLong.of(24));
    assertThat(Shape.scalar().elementCount()).isEqualTo(OptionalLong.of(1));
    assertThat(Shape.of(2, Shape.DYNAMIC).elementCount()).isEqualTo(OptionalLong.empty());
    assertThat(Shape.of(Long.MAX_VALUE, 2).elementCount()).isEqualTo(OptionalLong.empty());
    assertThat(Shape.dynamic(2)).isEqualTo(Shape.of(Shape.DYNAMIC, Shape.DYNAMIC));
  }

  @Test
  void isImmutable() {
    long[] dims = {1, 2};
    Shape s = Shape.of(dims);
    dims[0] = 9;
    s.dims()[1] = 9;
    assertThat(s).isEqualTo(Shape.of(1, 2));
    assertThat(s.dimList()).containsExactly(1L, 2L).inOrder();
  }

  @Test
  void rejectsBadDims() {
    assertThrows(IllegalArgumentException.class, () -> Shape.of(-2));
    assertThrows(IllegalStateException.class, () -> Shape.unranked().rank());
  }
}
