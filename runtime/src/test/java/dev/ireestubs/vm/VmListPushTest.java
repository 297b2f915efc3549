package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link VmList#push}'s quick path (a variant list with room) keeps every rule of the full one. */
class VmListPushTest {

  @Test
  void aVariantListTakesValuesViewsAndListsAndGrowsPastItsCapacity() {
    VmList list = VmList.variant(1);
    BufferView view = BufferView.wrap(0x21000020, new long[] {1}, ByteBuffer.allocateDirect(4));
    VmList nested = VmList.variant(0);
    list.push(VmValue.i32(1)).push(view).push(nested).push(null);
    assertThat(list.size()).isEqualTo(4);
    assertThat(list.get(0)).isEqualTo(VmValue.i32(1));
    assertThat(list.get(1)).isSameInstanceAs(view);
    assertThat(list.get(2)).isSameInstanceAs(nested);
    assertThat(list.get(3)).isNull();
  }

  @Test
  void closedListsAndOtherJavaTypesAreStillRefused() {
    VmList closed = VmList.variant(2);
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.push(VmValue.i32(1)));
    VmList list = VmList.variant(2);
    VmList closedElement = VmList.variant(0);
    closedElement.close();
    assertThat(assertThrows(IllegalArgumentException.class, () -> list.push(closedElement)))
        .hasMessageThat()
        .contains("closed");
    assertThrows(IllegalArgumentException.class, () -> list.push("text"));
    assertThat(list.size()).isEqualTo(0);
  }

  @Test
  void typedListsStillConvertAndCheck() {
    VmList ints = VmList.ofValues(VmValueType.I64, 2);
    ints.push(VmValue.i32(7));
    assertThat(ints.getValue(0)).isEqualTo(VmValue.i64(7));
    assertThrows(VmTypeException.class, () -> ints.push(VmValue.f32(1)));
    VmList views = VmList.ofRefs(BufferView.REF_TYPE, 1);
    assertThrows(VmTypeException.class, () -> views.push(VmValue.i32(1)));
    assertThrows(VmTypeException.class, () -> views.push(VmList.variant(0)));
  }
}
