package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.vm.VmValue.f32;
import static dev.ireestubs.vm.VmValue.f64;
import static dev.ireestubs.vm.VmValue.i16;
import static dev.ireestubs.vm.VmValue.i32;
import static dev.ireestubs.vm.VmValue.i64;
import static dev.ireestubs.vm.VmValue.i8;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class VmListTest {

  private static final int F32 = 0x21000020;

  private static BufferView view4() {
    return BufferView.allocate(F32, 4);
  }

  @Nested
  class Variant {

    @Test
    void holdsValuesRefsListsAndEmptySlots() {
      BufferView view = view4();
      VmList inner = VmList.of(i32(2));
      VmList list = VmList.variant(4);
      list.pushValue(i32(1)).pushRef(view).pushRef(inner).pushRef(null);
      assertThat(list.elementType()).isEqualTo(VmTypeDef.VARIANT);
      assertThat(list.refTypeName()).isEqualTo("vm.list");
      assertThat(list.size()).isEqualTo(4);
      assertThat(list.isEmpty()).isFalse();
      assertThat(list.get(0)).isEqualTo(i32(1));
      assertThat(list.getValue(0)).isEqualTo(i32(1));
      assertThat(list.getRef(1)).isSameInstanceAs(view);
      assertThat(list.getBufferView(1)).isSameInstanceAs(view);
      assertThat(list.getList(2)).isSameInstanceAs(inner);
      assertThat(list.getRef(2, VmList.class)).isSameInstanceAs(inner);
      assertThat(list.get(3)).isNull();
      assertThat(list.getRef(3)).isNull();
      assertThat(list.toString()).isEqualTo("[i32 1, hal.buffer_view<4xf32>, [i32 2], null]");
    }

    @Test
    void keepsValuesAsPushed() {
      VmList list = VmList.of(i8((byte) -1), i16((short) 2), i64(3), f32(1.5f), f64(2.5));
      assertThat(list.elements())
          .containsExactly(i8((byte) -1), i16((short) 2), i64(3), f32(1.5f), f64(2.5))
          .inOrder();
      assertThat(list.toString()).isEqualTo("[i8 -1, i16 2, i64 3, f32 1.5, f64 2.5]");
    }

    @Test
    void getValueAsConvertsLikeTheVm() {
      VmList list = VmList.of(i8((byte) -1), i64(0x1_0000_0005L), f32(0.1f), f64(0.1));
      assertThat(list.getValueAs(0, VmValueType.I64)).isEqualTo(i64(-1));
      assertThat(list.getValueAs(1, VmValueType.I32)).isEqualTo(i32(5));
      assertThat(list.getValueAs(2, VmValueType.F64)).isEqualTo(f64((double) 0.1f));
      assertThat(list.getValueAs(3, VmValueType.F32)).isEqualTo(f32(0.1f));
      assertThat(list.getValueAs(0, VmValueType.I8)).isEqualTo(i8((byte) -1));
      VmTypeException e =
          assertThrows(VmTypeException.class, () -> list.getValueAs(0, VmValueType.F32));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "variant at index 0 is i8 -1, which the VM does not convert to f32"
                  + " (no conversion between integers and floats)");
      assertThrows(VmTypeException.class, () -> list.getValueAs(3, VmValueType.I64));
    }

    @Test
    void getValueOnARefIsNotAValueType() {
      VmList list = VmList.of(i32(1), view4(), null);
      VmTypeException e = assertThrows(VmTypeException.class, () -> list.getValue(1));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo("variant at index 1 is not a value type: got hal.buffer_view<4xf32>");
      VmTypeException empty = assertThrows(VmTypeException.class, () -> list.getValue(2));
      assertThat(empty)
          .hasMessageThat()
          .isEqualTo("variant at index 2 is not a value type: got null");
      assertThrows(VmTypeException.class, () -> list.getValueAs(1, VmValueType.I32));
    }

    @Test
    void refGettersNameIndexExpectedAndActual() {
      OpaqueRef fence = OpaqueRef.of("hal.fence", null);
      VmList list = VmList.of(i32(5), VmList.of(i32(1), i32(2)), null, fence, view4());
      VmTypeException value = assertThrows(VmTypeException.class, () -> list.getRef(0));
      assertThat(value).hasMessageThat().isEqualTo("variant at index 0 is not a ref: got i32 5");
      VmTypeException valueView = assertThrows(VmTypeException.class, () -> list.getBufferView(0));
      assertThat(valueView)
          .hasMessageThat()
          .isEqualTo("variant at index 0 is not a ref: expected hal.buffer_view, got i32 5");
      VmTypeException wrong = assertThrows(VmTypeException.class, () -> list.getBufferView(1));
      assertThat(wrong)
          .hasMessageThat()
          .isEqualTo(
              "variant at index 1 has the wrong ref type: expected hal.buffer_view,"
                  + " got a vm.list<?> of size 2");
      VmTypeException nul = assertThrows(VmTypeException.class, () -> list.getList(2));
      assertThat(nul).hasMessageThat().isEqualTo("variant at index 2 is null: expected vm.list");
      VmTypeException opaque = assertThrows(VmTypeException.class, () -> list.getList(3));
      assertThat(opaque)
          .hasMessageThat()
          .isEqualTo(
              "variant at index 3 has the wrong ref type: expected vm.list, got a hal.fence ref");
      VmTypeException byClass =
          assertThrows(VmTypeException.class, () -> list.getRef(4, OpaqueRef.class));
      assertThat(byClass)
          .hasMessageThat()
          .isEqualTo(
              "variant at index 4 has the wrong ref type: expected OpaqueRef,"
                  + " got hal.buffer_view<4xf32>");
      assertThat(list.getRef(3, OpaqueRef.class)).isSameInstanceAs(fence);
    }

    @Test
    void setReplaces() {
      VmList list = VmList.of(i32(1), i32(2));
      list.set(0, f32(1f));
      list.setValue(1, i64(7));
      assertThat(list.toString()).isEqualTo("[f32 1.0, i64 7]");
      BufferView view = view4();
      list.setRef(1, view);
      list.set(0, null);
      assertThat(list.elements()).containsExactly(null, view).inOrder();
    }

    @Test
    void rejectsOtherJavaTypes() {
      VmList list = VmList.variant(1);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> list.push(5));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "a vm.list element is a VmValue, a VmRef or null; got an Integer (5)"
                  + " for index 0");
      assertThrows(IllegalArgumentException.class, () -> VmList.of("text"));
      assertThat(list.size()).isEqualTo(0);
    }

    @Test
    void takeRefMovesOut() {
      BufferView view = view4();
      VmList list = VmList.of(view, i32(1));
      assertThat(list.takeRef(0)).isSameInstanceAs(view);
      assertThat(list.get(0)).isNull();
      assertThat(list.takeRef(0)).isNull();
      assertThrows(VmTypeException.class, () -> list.takeRef(1));
    }
  }

  @Nested
  class TypedValues {

    @Test
    void holdsValuesOfItsType() {
      VmList list = VmList.ofValues(VmValueType.I32, 2);
      list.pushValue(i32(1)).pushValue(i32(2));
      assertThat(list.elementType()).isEqualTo(VmTypeDef.value(VmValueType.I32));
      assertThat(list.getValue(1)).isEqualTo(i32(2));
      assertThat(list.get(0)).isEqualTo(i32(1));
      assertThat(list.toString()).isEqualTo("list<i32>[1, 2]");
    }

    @Test
    void convertsIntegersByCast() {
      VmList list = VmList.ofValues(VmValueType.I32, 0);
      list.pushValue(i64(0x1_0000_0005L));
      list.pushValue(i8((byte) -1));
      list.push(i16((short) -300));
      assertThat(list.elements()).containsExactly(i32(5), i32(-1), i32(-300)).inOrder();

      VmList bytes = VmList.ofValues(VmValueType.I8, 0);
      bytes.pushValue(i32(200));
      bytes.pushValue(i64(-1));
      assertThat(bytes.elements()).containsExactly(i8((byte) -56), i8((byte) -1)).inOrder();

      VmList longs = VmList.ofValues(VmValueType.I64, 0);
      longs.pushValue(i32(Integer.MIN_VALUE));
      assertThat(longs.getValue(0)).isEqualTo(i64(Integer.MIN_VALUE));
    }

    @Test
    void convertsBetweenFloatWidths() {
      VmList floats = VmList.ofValues(VmValueType.F32, 0);
      floats.pushValue(f64(0.1));
      floats.pushValue(f64(1e300));
      assertThat(floats.elements())
          .containsExactly(f32(0.1f), f32(Float.POSITIVE_INFINITY))
          .inOrder();
      VmList doubles = VmList.ofValues(VmValueType.F64, 0);
      doubles.pushValue(f32(0.1f));
      assertThat(doubles.getValue(0)).isEqualTo(f64((double) 0.1f));
      assertThat(doubles.toString()).isEqualTo("list<f64>[0.10000000149011612]");
    }

    @Test
    void refusesIntFloatConversion() {
      VmList ints = VmList.ofValues(VmValueType.I32, 0);
      VmTypeException e = assertThrows(VmTypeException.class, () -> ints.pushValue(f32(1.5f)));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "vm.list<i32> cannot hold f32 1.5 at index 0:"
                  + " the VM does not convert between integers and floats");
      VmList floats = VmList.ofValues(VmValueType.F64, 0);
      assertThrows(VmTypeException.class, () -> floats.pushValue(i64(1)));
      assertThat(ints.size()).isEqualTo(0);
      assertThat(floats.size()).isEqualTo(0);
    }

    @Test
    void refusesRefsAndNulls() {
      VmList list = VmList.ofValues(VmValueType.I32, 0);
      list.pushValue(i32(1));
      VmTypeException ref = assertThrows(VmTypeException.class, () -> list.pushRef(view4()));
      assertThat(ref)
          .hasMessageThat()
          .isEqualTo(
              "vm.list<i32> cannot hold hal.buffer_view<4xf32> at index 1:"
                  + " expected a value of type i32");
      VmTypeException nul = assertThrows(VmTypeException.class, () -> list.set(0, null));
      assertThat(nul)
          .hasMessageThat()
          .isEqualTo("vm.list<i32> cannot hold null at index 0: expected a value of type i32");
      VmTypeException get = assertThrows(VmTypeException.class, () -> list.getRef(0));
      assertThat(get)
          .hasMessageThat()
          .isEqualTo("element at index 0 of a vm.list<i32> is not a ref: got i32 1");
      assertThrows(VmTypeException.class, () -> list.takeRef(0));
    }

    @Test
    void resizeFillsZeros() {
      VmList list = VmList.ofValues(VmValueType.F32, 0);
      list.pushValue(f32(3f));
      list.resize(3);
      assertThat(list.elements()).containsExactly(f32(3f), f32(0f), f32(0f)).inOrder();
      list.setValue(2, f32(9f));
      list.resize(1);
      list.resize(3);
      assertThat(list.toString()).isEqualTo("list<f32>[3.0, 0.0, 0.0]");
    }

    @Test
    void setConverts() {
      VmList list = VmList.ofValues(VmValueType.I16, 0);
      list.resize(1);
      list.setValue(0, i32(0x12345));
      assertThat(list.getValue(0)).isEqualTo(i16((short) 0x2345));
      assertThat(list.getValueAs(0, VmValueType.I64)).isEqualTo(i64(0x2345));
    }
  }

  @Nested
  class TypedRefs {

    @Test
    void holdsRefsOfItsTypeAndNulls() {
      BufferView view = view4();
      VmList list = VmList.ofRefs("hal.buffer_view", 2);
      list.pushRef(view).pushRef(null);
      assertThat(list.elementType()).isEqualTo(VmTypeDef.ref("hal.buffer_view"));
      assertThat(list.getBufferView(0)).isSameInstanceAs(view);
      assertThat(list.getRef(1)).isNull();
      assertThat(list.toString()).isEqualTo("list<!hal.buffer_view>[hal.buffer_view<4xf32>, null]");
    }

    @Test
    void refusesOtherRefTypesAndValues() {
      VmList list = VmList.ofRefs("hal.buffer_view", 0);
      VmTypeException other =
          assertThrows(VmTypeException.class, () -> list.pushRef(VmList.variant(0)));
      assertThat(other)
          .hasMessageThat()
          .isEqualTo(
              "vm.list<!hal.buffer_view> cannot hold a vm.list<?> of size 0 at index 0:"
                  + " expected a hal.buffer_view ref or null");
      VmTypeException value = assertThrows(VmTypeException.class, () -> list.pushValue(i32(1)));
      assertThat(value)
          .hasMessageThat()
          .isEqualTo(
              "vm.list<!hal.buffer_view> cannot hold i32 1 at index 0:"
                  + " expected a hal.buffer_view ref or null");
      assertThrows(VmTypeException.class, () -> list.pushRef(OpaqueRef.of("hal.fence", null)));
    }

    @Test
    void getValueIsNotAValueType() {
      VmList list = VmList.ofRefs("hal.buffer_view", 0).pushRef(view4());
      VmTypeException e = assertThrows(VmTypeException.class, () -> list.getValue(0));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "element at index 0 of a vm.list<!hal.buffer_view> is not a value type:"
                  + " got hal.buffer_view<4xf32>");
    }

    @Test
    void listsOfLists() {
      VmList lists = VmList.create(VmTypeDef.ref("vm.list"), 0);
      lists.pushRef(VmList.of(i32(1))).pushRef(VmList.ofValues(VmValueType.I8, 0));
      assertThat(lists.getList(0).getValue(0)).isEqualTo(i32(1));
      assertThat(lists.toString()).isEqualTo("list<!vm.list>[[i32 1], list<i8>[]]");
    }

    @Test
    void resizeFillsNullRefs() {
      VmList list = VmList.ofRefs("hal.fence", 0);
      list.resize(2);
      assertThat(list.elements()).containsExactly(null, null);
    }
  }

  @Nested
  class SizeAndCapacity {

    @Test
    void capacityGrows() {
      VmList list = VmList.variant(0);
      assertThat(list.capacity()).isEqualTo(0);
      list.pushValue(i32(0));
      assertThat(list.capacity()).isEqualTo(8);
      for (int i = 1; i < 9; i++) {
        list.pushValue(i32(i));
      }
      assertThat(list.capacity()).isEqualTo(16);
      assertThat(list.size()).isEqualTo(9);
      list.reserve(100);
      assertThat(list.capacity()).isEqualTo(100);
      list.reserve(10);
      assertThat(list.capacity()).isEqualTo(100);
      for (int i = 0; i < 9; i++) {
        assertThat(list.getValue(i)).isEqualTo(i32(i));
      }
    }

    @Test
    void valueListCapacityGrows() {
      VmList list = VmList.ofValues(VmValueType.I64, 3);
      assertThat(list.capacity()).isEqualTo(3);
      for (int i = 0; i < 20; i++) {
        list.pushValue(i64(i));
      }
      assertThat(list.capacity()).isAtLeast(20);
      assertThat(list.getValue(19)).isEqualTo(i64(19));
    }

    @Test
    void resizeGrowsWithEmptySlotsAndShrinks() {
      VmList list = VmList.of(i32(1), i32(2), i32(3));
      list.resize(5);
      assertThat(list.elements()).containsExactly(i32(1), i32(2), i32(3), null, null).inOrder();
      list.resize(1);
      list.resize(2);
      assertThat(list.elements()).containsExactly(i32(1), null).inOrder();
      list.clear();
      assertThat(list.isEmpty()).isTrue();
      assertThat(list.capacity()).isAtLeast(5);
    }

    @Test
    void badSizesAndCapacities() {
      assertThrows(IllegalArgumentException.class, () -> VmList.variant(-1));
      assertThrows(IllegalArgumentException.class, () -> VmList.variant(VmList.MAX_CAPACITY + 1));
      VmList list = VmList.variant(0);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> list.resize(-2));
      assertThat(e).hasMessageThat().isEqualTo("capacity must be 0..2147483639, got -2");
      assertThrows(IllegalArgumentException.class, () -> list.reserve(-1));
    }

    @Test
    void indexErrors() {
      VmList list = VmList.of(i32(1), i32(2), i32(3));
      IndexOutOfBoundsException e =
          assertThrows(IndexOutOfBoundsException.class, () -> list.get(3));
      assertThat(e).hasMessageThat().isEqualTo("index 3 out of bounds for a vm.list<?> of size 3");
      assertThrows(IndexOutOfBoundsException.class, () -> list.get(-1));
      assertThrows(IndexOutOfBoundsException.class, () -> list.set(3, i32(0)));
      assertThrows(IndexOutOfBoundsException.class, () -> list.getValue(7));
      assertThrows(IndexOutOfBoundsException.class, () -> list.getRef(3));
      VmList typed = VmList.ofValues(VmValueType.I8, 4);
      IndexOutOfBoundsException t =
          assertThrows(IndexOutOfBoundsException.class, () -> typed.getValue(0));
      assertThat(t).hasMessageThat().isEqualTo("index 0 out of bounds for a vm.list<i8> of size 0");
    }
  }

  @Nested
  class Structure {

    @Test
    void nestedListsCompareStructurally() {
      BufferView view = view4();
      VmList a = VmList.of(i32(1), view, VmList.of(i32(2), VmList.of()));
      VmList b = VmList.of(i32(1), view, VmList.of(i32(2), VmList.of()));
      assertThat(a).isEqualTo(b);
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
      assertThat(a).isNotEqualTo(VmList.of(i32(1), view, VmList.of(i32(3), VmList.of())));
      assertThat(a).isNotEqualTo(VmList.of(i32(1), view4(), VmList.of(i32(2), VmList.of())));
      assertThat(a).isNotEqualTo(VmList.of(i32(1), view));
      assertThat(VmList.of(i32(1))).isNotEqualTo(VmList.of(i64(1)));
      assertThat(VmList.of(VmList.of())).isNotEqualTo(VmList.of(view));
      assertThat(VmList.of(view)).isNotEqualTo(VmList.of(VmList.of()));
      assertThat(a).isNotEqualTo("[i32 1]");
    }

    @Test
    void variantAndTypedListsDiffer() {
      VmList variant = VmList.of(i32(1), i32(2));
      VmList typed = VmList.ofValues(VmValueType.I32, 2).pushValue(i32(1)).pushValue(i32(2));
      assertThat(variant).isNotEqualTo(typed);
      assertThat(typed)
          .isEqualTo(VmList.ofValues(VmValueType.I32, 9).pushValue(i32(1)).pushValue(i32(2)));
      assertThat(VmList.ofRefs("hal.fence", 0)).isNotEqualTo(VmList.ofRefs("hal.device", 0));
    }

    @Test
    void selfContainingListTerminates() {
      VmList a = VmList.variant(1);
      a.pushRef(a);
      VmList b = VmList.variant(1);
      b.pushRef(b);
      assertThat(a.toString()).isEqualTo("[[...]]");
      assertThat(a).isEqualTo(b);
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
      assertThat(a.getList(0)).isSameInstanceAs(a);

      VmList c = VmList.of(i32(1));
      c.pushRef(c);
      VmList d = VmList.of(i32(2));
      d.pushRef(d);
      assertThat(c.toString()).isEqualTo("[i32 1, [...]]");
      assertThat(c).isNotEqualTo(d);
    }

    @Test
    void mutuallyContainingListsTerminate() {
      VmList a = VmList.of(i32(1));
      VmList b = VmList.of(i32(1));
      a.pushRef(b);
      b.pushRef(a);
      assertThat(a.toString()).isEqualTo("[i32 1, [i32 1, [...]]]");
      // a and b unfold to the same infinite tree, and so does a list holding itself.
      VmList self = VmList.of(i32(1));
      self.pushRef(self);
      assertThat(a).isEqualTo(b);
      assertThat(a).isEqualTo(self);
      assertThat(a.hashCode()).isEqualTo(self.hashCode());
      b.set(0, i32(2));
      assertThat(a).isNotEqualTo(self);
    }

    @Test
    void sharedSublistPrintsTwice() {
      VmList shared = VmList.of(i32(7));
      VmList list = VmList.of(shared, shared);
      assertThat(list.toString()).isEqualTo("[[i32 7], [i32 7]]");
    }

    @Test
    void deepNestingDoesNotOverflow() {
      VmList a = VmList.variant(1);
      VmList b = VmList.variant(1);
      VmList innerA = a;
      VmList innerB = b;
      for (int i = 0; i < 20_000; i++) {
        VmList na = VmList.variant(1);
        VmList nb = VmList.variant(1);
        innerA.pushRef(na);
        innerB.pushRef(nb);
        innerA = na;
        innerB = nb;
      }
      assertThat(a).isEqualTo(b);
      innerB.pushValue(i32(0));
      assertThat(a).isNotEqualTo(b);
      assertThat(a.toString()).startsWith("[[[[");
      assertThat(a.toString()).contains("[...]");
      a.close();
      assertThat(innerA.isClosed()).isTrue();
    }

    @Test
    void longListsAreTruncatedInToString() {
      VmList list = VmList.ofValues(VmValueType.I8, 300);
      list.resize(300);
      assertThat(list.toString()).endsWith(", 0, ..., 44 more]");
    }

    @Test
    void ofBuildsAVariantList() {
      BufferView view = view4();
      VmList list = VmList.of(i32(1), view, VmList.of(i32(2)));
      assertThat(list.elementType().isVariant()).isTrue();
      assertThat(list.toString()).isEqualTo("[i32 1, hal.buffer_view<4xf32>, [i32 2]]");
      assertThat(VmList.of().toString()).isEqualTo("[]");
      assertThat(VmList.of((Object) null).toString()).isEqualTo("[null]");
      assertThat(VmList.of((Object[]) null).toString()).isEqualTo("[null]");
    }

    @Test
    void elementsIsAnUnmodifiableSnapshot() {
      VmList list = VmList.of(i32(1), null);
      List<Object> snapshot = list.elements();
      list.pushValue(i32(2));
      assertThat(snapshot).containsExactly(i32(1), null).inOrder();
      assertThrows(UnsupportedOperationException.class, () -> snapshot.add(i32(3)));
    }

    @Test
    void copyIsShallow() {
      VmList inner = VmList.of(i32(1));
      VmList list = VmList.of(inner, i32(2));
      VmList copy = list.copy();
      assertThat(copy).isEqualTo(list);
      assertThat(copy.getList(0)).isSameInstanceAs(inner);
      copy.set(1, i32(3));
      assertThat(list.getValue(1)).isEqualTo(i32(2));
      VmList typed = VmList.ofValues(VmValueType.F32, 0).pushValue(f32(1f));
      VmList typedCopy = typed.copy();
      typedCopy.setValue(0, f32(2f));
      assertThat(typed.getValue(0)).isEqualTo(f32(1f));
      assertThat(typedCopy.elementType()).isEqualTo(typed.elementType());
    }
  }

  @Nested
  class Strings {

    @Test
    void ascii() {
      VmList s = VmList.utf8("hi");
      assertThat(s.elementType()).isEqualTo(VmTypeDef.value(VmValueType.I8));
      assertThat(s.toString()).isEqualTo("list<i8>[104, 105]");
      assertThat(s.toUtf8String()).isEqualTo("hi");
    }

    @Test
    void multiByte() {
      String text = "é€𝄞 ok";
      VmList s = VmList.utf8(text);
      assertThat(s.size()).isEqualTo(2 + 3 + 4 + 3);
      assertThat(s.getValue(0)).isEqualTo(i8((byte) 0xC3));
      assertThat(s.getValue(1)).isEqualTo(i8((byte) 0xA9));
      assertThat(s.toUtf8String()).isEqualTo(text);
      assertThat(s.toByteArray()).isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void empty() {
      VmList s = VmList.utf8("");
      assertThat(s.size()).isEqualTo(0);
      assertThat(s.toUtf8String()).isEmpty();
      assertThat(s.toString()).isEqualTo("list<i8>[]");
    }

    @Test
    void embeddedNul() {
      assertThat(VmList.utf8("a\0b").toUtf8String()).isEqualTo("a\0b");
    }

    @Test
    void malformedUtf8IsAnError() {
      IllegalStateException truncated =
          assertThrows(
              IllegalStateException.class,
              () -> VmList.ofBytes(new byte[] {0x68, (byte) 0xC3}).toUtf8String());
      assertThat(truncated)
          .hasMessageThat()
          .isEqualTo(
              "the list<i8> is not valid UTF-8: malformed input of 1 byte(s) at offset 1 of 2");
      IllegalStateException invalid =
          assertThrows(
              IllegalStateException.class,
              () -> VmList.ofBytes(new byte[] {(byte) 0xFF, 0x41}).toUtf8String());
      assertThat(invalid).hasMessageThat().contains("at offset 0 of 2");
      // Overlong NUL and an encoded surrogate are not UTF-8 either.
      assertThrows(
          IllegalStateException.class,
          () -> VmList.ofBytes(new byte[] {(byte) 0xC0, (byte) 0x80}).toUtf8String());
      assertThrows(
          IllegalStateException.class,
          () -> VmList.ofBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}).toUtf8String());
    }

    @Test
    void unpairedSurrogateHasNoUtf8() {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> VmList.utf8("ab\uD800c"));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "the string has an unpaired surrogate U+D800 at index 2; it has no UTF-8 form");
      assertThrows(IllegalArgumentException.class, () -> VmList.utf8("\uDC00"));
      assertThrows(IllegalArgumentException.class, () -> VmList.utf8("x\uD83D"));
    }

    @Test
    void nonI8ListsAreNotStrings() {
      VmTypeException typed =
          assertThrows(
              VmTypeException.class, () -> VmList.ofValues(VmValueType.I32, 0).toUtf8String());
      assertThat(typed)
          .hasMessageThat()
          .isEqualTo("expected a list<i8> (a string's bytes), got a vm.list<i32>");
      VmTypeException variant =
          assertThrows(
              VmTypeException.class, () -> VmList.of(i8((byte) 0x68), i32(0x69)).toUtf8String());
      assertThat(variant)
          .hasMessageThat()
          .isEqualTo("expected a list of i8 (a string's bytes), but variant at index 1 is i32 105");
      assertThrows(VmTypeException.class, () -> VmList.ofRefs("hal.buffer_view", 0).toByteArray());
    }

    @Test
    void variantListOfI8IsAString() {
      assertThat(VmList.of(i8((byte) 0x68), i8((byte) 0x69)).toUtf8String()).isEqualTo("hi");
    }
  }

  @Nested
  class Resources {

    @Test
    void closeReleasesTheTree() {
      AtomicInteger released = new AtomicInteger();
      OpaqueRef a = OpaqueRef.withRelease("hal.fence", null, released::incrementAndGet);
      OpaqueRef b = OpaqueRef.withRelease("hal.fence", null, released::incrementAndGet);
      VmList inner = VmList.of(b, a);
      VmList list = VmList.of(a, inner, i32(1), view4(), null);
      list.pushRef(list);
      try (list) {
        assertThat(list.size()).isEqualTo(6);
      }
      assertThat(released.get()).isEqualTo(2);
      assertThat(a.isClosed()).isTrue();
      assertThat(list.isClosed()).isTrue();
      assertThat(inner.isClosed()).isTrue();
      list.close();
      assertThat(released.get()).isEqualTo(2);
    }

    @Test
    void closedListRejectsUse() {
      VmList list = VmList.of(i32(1));
      list.close();
      IllegalStateException e = assertThrows(IllegalStateException.class, list::size);
      assertThat(e).hasMessageThat().isEqualTo("the vm.list<?> is closed");
      assertThrows(IllegalStateException.class, () -> list.get(0));
      assertThrows(IllegalStateException.class, () -> list.pushValue(i32(1)));
      assertThrows(IllegalStateException.class, () -> list.resize(0));
      assertThrows(IllegalStateException.class, list::elements);
      assertThat(list.toString()).isEqualTo("vm.list<?> (closed)");
      IllegalArgumentException put =
          assertThrows(IllegalArgumentException.class, () -> VmList.of(list));
      assertThat(put).hasMessageThat().isEqualTo("cannot put a closed vm.list at index 0");
    }

    @Test
    void takenRefsSurviveClose() {
      OpaqueRef fence = OpaqueRef.withRelease("hal.fence", null, () -> {});
      VmList list = VmList.of(fence);
      VmRef taken = list.takeRef(0);
      list.close();
      assertThat(fence.isClosed()).isFalse();
      assertThat(taken).isSameInstanceAs(fence);
    }

    @Test
    void setAndResizeDoNotClose() {
      OpaqueRef fence = OpaqueRef.withRelease("hal.fence", null, () -> {});
      VmList list = VmList.of(fence, fence);
      list.set(0, null);
      list.resize(0);
      assertThat(fence.isClosed()).isFalse();
    }

    @Test
    void releaseFailuresAreRethrownAfterReleasingTheRest() {
      List<String> log = new ArrayList<>();
      OpaqueRef bad1 =
          OpaqueRef.withRelease(
              "x.bad",
              null,
              () -> {
                throw new IllegalStateException("first");
              });
      OpaqueRef good = OpaqueRef.withRelease("x.good", null, () -> log.add("good"));
      OpaqueRef bad2 =
          OpaqueRef.withRelease(
              "x.bad",
              null,
              () -> {
                throw new IllegalStateException("second");
              });
      VmList list = VmList.of(bad1, good, bad2);
      IllegalStateException e = assertThrows(IllegalStateException.class, list::close);
      assertThat(e).hasMessageThat().isEqualTo("first");
      assertThat(Arrays.asList(e.getSuppressed())).hasSize(1);
      assertThat(e.getSuppressed()[0]).hasMessageThat().isEqualTo("second");
      assertThat(log).containsExactly("good");
      assertThat(list.isClosed()).isTrue();
    }
  }
}
