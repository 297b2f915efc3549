package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VmTypeDefTest {

  @Test
  void variantType() {
    VmTypeDef t = VmTypeDef.variant();
    assertThat(t).isSameInstanceAs(VmTypeDef.VARIANT);
    assertThat(t.isVariant()).isTrue();
    assertThat(t.isValue()).isFalse();
    assertThat(t.isRef()).isFalse();
    assertThat(t.valueType()).isEmpty();
    assertThat(t.refTypeName()).isEmpty();
    assertThat(t.toString()).isEqualTo("?");
  }

  @Test
  void valueTypes() {
    VmTypeDef t = VmTypeDef.value(VmValueType.I32);
    assertThat(t.isValue()).isTrue();
    assertThat(t.isVariant()).isFalse();
    assertThat(t.isRef()).isFalse();
    assertThat(t.valueType()).hasValue(VmValueType.I32);
    assertThat(t.toString()).isEqualTo("i32");
    assertThat(t).isEqualTo(VmTypeDef.value(VmValueType.I32));
    assertThat(t).isNotEqualTo(VmTypeDef.value(VmValueType.I64));
  }

  @Test
  void refTypes() {
    VmTypeDef t = VmTypeDef.ref("hal.buffer_view");
    assertThat(t.isRef()).isTrue();
    assertThat(t.isValue()).isFalse();
    assertThat(t.isVariant()).isFalse();
    assertThat(t.refTypeName()).hasValue("hal.buffer_view");
    assertThat(t.toString()).isEqualTo("!hal.buffer_view");
    assertThat(t).isEqualTo(VmTypeDef.ref("hal.buffer_view"));
    assertThat(t.hashCode()).isEqualTo(VmTypeDef.ref("hal.buffer_view").hashCode());
    assertThat(t).isNotEqualTo(VmTypeDef.ref("vm.list"));
    assertThat(t).isNotEqualTo(VmTypeDef.VARIANT);
  }

  @Test
  void badRefTypeNamesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> VmTypeDef.ref(""));
    assertThrows(IllegalArgumentException.class, () -> VmTypeDef.ref("hal buffer"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> VmTypeDef.ref("!hal.fence"));
    assertThat(e).hasMessageThat().contains("no leading '!'");
    assertThrows(NullPointerException.class, () -> VmTypeDef.ref(null));
  }
}
