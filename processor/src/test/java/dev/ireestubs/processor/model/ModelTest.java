package dev.ireestubs.processor.model;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.ndarray.NdArray;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model's own invariants: what the writer may rely on. */
class ModelTest {

  private static final AbiType.Scalar I32 = new AbiType.Scalar(ElementType.I32);
  private static final ClassName REC = ClassName.get("p", "Rec");

  private static ScalarBinding i32(String path) {
    return new ScalarBinding(I32, TypeName.INT, false, path);
  }

  @Test
  void recordBindingKeepsDescriptorOrderAndTheConstructorOrder() {
    AbiType.Dict dict =
        new AbiType.Dict(List.of(new AbiType.Entry("a", I32), new AbiType.Entry("b", I32)));
    RecordBinding r =
        new RecordBinding(
            dict,
            REC,
            List.of(
                new ComponentBinding("a", "a", i32("f: x.a")),
                new ComponentBinding("b", "bee", i32("f: x.b"))),
            "f: x",
            List.of("bee", "a"));
    assertThat(r.javaType()).isEqualTo(REC);
    assertThat(r.componentsInConstructorOrder().get(0).key()).isEqualTo("b");
    // The short constructor: declaration order = descriptor order.
    RecordBinding same = new RecordBinding(dict, REC, r.components(), "f: x");
    assertThat(same.constructorOrder()).containsExactly("a", "bee").inOrder();
  }

  @Test
  void recordBindingRejectsInconsistentModels() {
    AbiType.Dict dict = new AbiType.Dict(List.of(new AbiType.Entry("a", I32)));
    List<ComponentBinding> one = List.of(new ComponentBinding("a", "a", i32("f: x.a")));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RecordBinding(dict, REC, one, "f: x", List.of("b")));
    assertThrows(IllegalArgumentException.class, () -> new RecordBinding(I32, REC, one, "f: x"));
  }

  @Test
  void listBindingFixedSizeMatchesTheType() {
    TypeName list =
        ParameterizedTypeName.get(ClassName.get(List.class), ClassName.get(Integer.class));
    ScalarBinding element = new ScalarBinding(I32, ClassName.get(Integer.class), true, "f: x[*]");
    AbiType.Sequence two = new AbiType.Sequence(AbiType.SequenceKind.LIST, List.of(I32, I32));
    assertThat(new ListBinding(two, list, element, 2, "f: x").fixedSize()).isEqualTo(2);
    assertThrows(
        IllegalArgumentException.class, () -> new ListBinding(two, list, element, -1, "f: x"));
    AbiType.HomogeneousList any = new AbiType.HomogeneousList(I32);
    assertThat(new ListBinding(any, list, element, -1, "f: x").fixedSize()).isEqualTo(-1);
    assertThrows(
        IllegalArgumentException.class, () -> new ListBinding(any, list, element, 3, "f: x"));
    assertThrows(
        IllegalArgumentException.class, () -> new ListBinding(I32, list, element, -1, "f: x"));
  }

  @Test
  void inlinedResultsAreARecordOrAList() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new ResultModel.Inlined(TypeName.INT, i32("f: result")));
  }

  @Test
  void javaArrayBindingHasRankAtLeastOne() {
    AbiType.NdArray a = new AbiType.NdArray(ElementType.F32, dev.ireestubs.abi.Shape.of(2));
    com.palantir.javapoet.ArrayTypeName floats =
        com.palantir.javapoet.ArrayTypeName.of(TypeName.FLOAT);
    assertThat(new JavaArrayBinding(a, floats, 1, TypeName.FLOAT, "f: x").rank()).isEqualTo(1);
    assertThrows(
        IllegalArgumentException.class,
        () -> new JavaArrayBinding(a, floats, 0, TypeName.FLOAT, "f: x"));
  }

  @Test
  void bindingTablesFollowTheDesign() {
    assertThat(NdArray.classNamesAccepting(ElementType.I32))
        .containsExactly("IntArray", "UIntArray")
        .inOrder();
    assertThat(NdArray.classNamesAccepting(ElementType.SI8)).containsExactly("ByteArray");
    assertThat(NdArray.classNamesAccepting(ElementType.UI64)).containsExactly("ULongArray");
    assertThat(NdArray.classNamesAccepting(ElementType.BF16)).containsExactly("BFloat16Array");
    assertThat(NdArray.classNamesAccepting(ElementType.COMPLEX64)).isEmpty();
    assertThat(NdArray.classNamesAccepting(ElementType.integer(4))).isEmpty();
    assertThat(JavaMapping.javaArrayComponent(ElementType.UI8)).isEmpty();
    assertThat(JavaMapping.javaArrayComponent(ElementType.F16)).isEmpty();
    assertThat(JavaMapping.javaArrayComponent(ElementType.SI16)).hasValue(short.class);
    assertThat(JavaMapping.scalar(ElementType.I1)).hasValue(boolean.class);
    assertThat(JavaMapping.scalar(ElementType.INDEX)).hasValue(long.class);
    assertThat(JavaMapping.scalar(ElementType.BF16)).isEmpty();
    assertThat(JavaMapping.scalar(ElementType.integer(128))).isEmpty();
  }
}
