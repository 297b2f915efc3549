package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.ndarray.NdArray;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one table of Java types for type records. */
class JavaMappingTest {

  @Test
  void scalarsBindThePrimitiveOfTheirWidth() {
    assertThat(JavaMapping.scalar(ElementType.I1)).hasValue(boolean.class);
    assertThat(JavaMapping.scalar(ElementType.I8)).hasValue(byte.class);
    assertThat(JavaMapping.scalar(ElementType.SI16)).hasValue(short.class);
    assertThat(JavaMapping.scalar(ElementType.UI32)).hasValue(int.class);
    assertThat(JavaMapping.scalar(ElementType.I64)).hasValue(long.class);
    assertThat(JavaMapping.scalar(ElementType.INDEX)).hasValue(long.class);
    assertThat(JavaMapping.scalar(ElementType.F32)).hasValue(float.class);
    assertThat(JavaMapping.scalar(ElementType.F64)).hasValue(double.class);
    assertThat(JavaMapping.scalar(ElementType.F16)).isEmpty();
    assertThat(JavaMapping.scalar(ElementType.BF16)).isEmpty();
    assertThat(JavaMapping.scalar(ElementType.integer(3))).isEmpty();
    assertThat(JavaMapping.scalar(ElementType.integer(128))).isEmpty();
    assertThat(JavaMapping.scalar(ElementType.COMPLEX64)).isEmpty();
    for (Class<?> p :
        List.of(
            boolean.class,
            byte.class,
            short.class,
            int.class,
            long.class,
            float.class,
            double.class)) {
      assertThat(JavaMapping.scalar(JavaMapping.element(p).orElseThrow())).hasValue(p);
    }
    assertThat(JavaMapping.element(char.class)).isEmpty();
  }

  @Test
  void oddIntegerWidthsHaveTheNarrowestHolder() {
    assertThat(JavaMapping.integer(3)).hasValue(byte.class);
    assertThat(JavaMapping.integer(9)).hasValue(short.class);
    assertThat(JavaMapping.integer(17)).hasValue(int.class);
    assertThat(JavaMapping.integer(33)).hasValue(long.class);
    assertThat(JavaMapping.integer(65)).isEmpty();
    assertThat(JavaMapping.integer(0)).isEmpty();
    assertThat(JavaMapping.boxed(int.class)).isEqualTo(Integer.class);
    assertThat(JavaMapping.boxed(boolean.class)).isEqualTo(Boolean.class);
  }

  @Test
  void arrayClassesAgreeWithNdArray() {
    assertThat(JavaMapping.arrayClassesAccepting(ElementType.I32))
        .containsExactly("IntArray", "UIntArray")
        .inOrder();
    assertThat(JavaMapping.arrayClassesAccepting(ElementType.SI8)).containsExactly("ByteArray");
    assertThat(JavaMapping.arrayClassesAccepting(ElementType.UI64)).containsExactly("ULongArray");
    assertThat(JavaMapping.arrayClassesAccepting(ElementType.COMPLEX64)).isEmpty();
    assertThat(JavaMapping.arrayClassesAccepting(ElementType.UNKNOWN))
        .isEqualTo(JavaMapping.ARRAY_CLASSES);
    assertThat(NdArray.classNamesAccepting(ElementType.UNKNOWN)).isEmpty();
    for (ElementType e :
        List.of(
            ElementType.F32,
            ElementType.BF16,
            ElementType.UI8,
            ElementType.I1,
            ElementType.F8E5M2)) {
      assertThat(NdArray.className(e)).isEqualTo(JavaMapping.arrayClass(e));
    }
    // Every class the table names is a real class of the ndarray package.
    for (String name : JavaMapping.ARRAY_CLASSES) {
      try {
        Class<?> c = Class.forName(JavaMapping.ARRAY_PACKAGE + "." + name);
        assertThat(NdArray.class.isAssignableFrom(c)).isTrue();
      } catch (ClassNotFoundException e) {
        throw new AssertionError(name, e);
      }
    }
  }

  @Test
  void javaArraysHoldSignedAndSignlessIntegersAndFloats() {
    assertThat(JavaMapping.javaArrayComponent(ElementType.F32)).hasValue(float.class);
    assertThat(JavaMapping.javaArrayComponent(ElementType.SI16)).hasValue(short.class);
    assertThat(JavaMapping.javaArrayComponent(ElementType.UI8)).isEmpty();
    assertThat(JavaMapping.javaArrayComponent(ElementType.F16)).isEmpty();
    assertThat(JavaMapping.javaArrayComponent(ElementType.INDEX)).isEmpty();
    assertThat(JavaMapping.arrayClassOfComponent(float.class)).hasValue("FloatArray");
    assertThat(JavaMapping.arrayClassOfComponent(char.class)).isEmpty();
    assertThat(JavaMapping.javaArrayRank(Shape.of(1, 2, 3, 4))).isTrue();
    assertThat(JavaMapping.javaArrayRank(Shape.of(1, 2, 3, 4, 5))).isFalse();
    assertThat(JavaMapping.javaArrayRank(Shape.scalar())).isFalse();
    assertThat(JavaMapping.javaArrayRank(Shape.unranked())).isFalse();
  }

  @Test
  void uniformSequencesMayBeLists() {
    AbiType i32 = new AbiType.Scalar(ElementType.I32);
    AbiType f32 = new AbiType.Scalar(ElementType.F32);
    assertThat(JavaMapping.uniformElement(List.of(i32, i32))).hasValue(i32);
    assertThat(JavaMapping.uniformElement(List.of(i32, f32))).isEmpty();
    assertThat(JavaMapping.uniformElement(List.of())).isEmpty();
  }
}
