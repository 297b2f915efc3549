package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

import java.lang.foreign.GroupLayout;
import org.junit.jupiter.api.Test;

/** Sizes and offsets against the table in iree-runtime-c-api.md, section 1.1 (x86-64 SysV). */
class LayoutsTest {

  private static long offset(GroupLayout layout, String... path) {
    java.lang.foreign.MemoryLayout.PathElement[] elements =
        new java.lang.foreign.MemoryLayout.PathElement[path.length];
    for (int i = 0; i < path.length; i++) {
      elements[i] = groupElement(path[i]);
    }
    return layout.byteOffset(elements);
  }

  @Test
  void stringViewIsPointerThenSize() {
    assertThat(Layouts.STRING_VIEW.byteSize()).isEqualTo(16);
    assertThat(offset(Layouts.STRING_VIEW, "data")).isEqualTo(0);
    assertThat(offset(Layouts.STRING_VIEW, "size")).isEqualTo(8);
    assertThat(Layouts.STRING_VIEW_DATA).isEqualTo(0);
    assertThat(Layouts.STRING_VIEW_SIZE).isEqualTo(8);
  }

  @Test
  void byteSpanAndAllocatorAreTwoWords() {
    assertThat(Layouts.BYTE_SPAN.byteSize()).isEqualTo(16);
    assertThat(Layouts.BYTE_SPAN_DATA).isEqualTo(0);
    assertThat(Layouts.BYTE_SPAN_LENGTH).isEqualTo(8);
    assertThat(Layouts.ALLOCATOR.byteSize()).isEqualTo(16);
    assertThat(Layouts.ALLOCATOR_SELF).isEqualTo(0);
    assertThat(Layouts.ALLOCATOR_CTL).isEqualTo(8);
  }

  @Test
  void stringPairIsTwoViews() {
    assertThat(Layouts.STRING_PAIR.byteSize()).isEqualTo(32);
    assertThat(Layouts.STRING_PAIR_KEY).isEqualTo(0);
    assertThat(Layouts.STRING_PAIR_VALUE).isEqualTo(16);
  }

  @Test
  void timeoutHasPaddingBeforeNanos() {
    assertThat(Layouts.TIMEOUT.byteSize()).isEqualTo(16);
    assertThat(Layouts.TIMEOUT_TYPE).isEqualTo(0);
    assertThat(Layouts.TIMEOUT_NANOS).isEqualTo(8);
  }

  @Test
  void valueIsTypeThenEightByteUnion() {
    assertThat(Layouts.VM_VALUE.byteSize()).isEqualTo(16);
    assertThat(Layouts.VM_VALUE_TYPE).isEqualTo(0);
    assertThat(Layouts.VM_VALUE_UNION).isEqualTo(8);
    assertThat(Layouts.VALUE_UNION.byteSize()).isEqualTo(8);
  }

  @Test
  void typeDefRefAndVariant() {
    assertThat(Layouts.VM_TYPE_DEF.byteSize()).isEqualTo(8);
    assertThat(Layouts.VM_REF.byteSize()).isEqualTo(16);
    assertThat(Layouts.VM_REF_PTR).isEqualTo(0);
    assertThat(Layouts.VM_REF_TYPE).isEqualTo(8);
    assertThat(Layouts.VM_VARIANT.byteSize()).isEqualTo(24);
    assertThat(Layouts.VM_VARIANT_TYPE).isEqualTo(0);
    assertThat(Layouts.VM_VARIANT_VALUE).isEqualTo(8);
    assertThat(Layouts.VM_VARIANT_REF_PTR).isEqualTo(8);
    assertThat(Layouts.VM_VARIANT_REF_TYPE).isEqualTo(16);
  }

  @Test
  void functionIsModuleLinkageOrdinal() {
    assertThat(Layouts.VM_FUNCTION.byteSize()).isEqualTo(16);
    assertThat(offset(Layouts.VM_FUNCTION, "module")).isEqualTo(0);
    assertThat(offset(Layouts.VM_FUNCTION, "linkage")).isEqualTo(8);
    assertThat(offset(Layouts.VM_FUNCTION, "ordinal")).isEqualTo(10);
    assertThat(Layouts.VM_FUNCTION_SIGNATURE.byteSize()).isEqualTo(16);
  }

  @Test
  void instanceAndSessionOptions() {
    assertThat(Layouts.INSTANCE_OPTIONS.byteSize()).isEqualTo(8);
    assertThat(Layouts.SESSION_OPTIONS.byteSize()).isEqualTo(16);
    assertThat(offset(Layouts.SESSION_OPTIONS, "context_flags")).isEqualTo(0);
    assertThat(offset(Layouts.SESSION_OPTIONS, "builtin_modules")).isEqualTo(8);
  }

  @Test
  void bufferParamsAreThirtyTwoBytes() {
    assertThat(Layouts.BUFFER_PARAMS.byteSize()).isEqualTo(32);
    assertThat(Layouts.BUFFER_PARAMS_USAGE).isEqualTo(0);
    assertThat(Layouts.BUFFER_PARAMS_ACCESS).isEqualTo(4);
    assertThat(Layouts.BUFFER_PARAMS_TYPE).isEqualTo(8);
    assertThat(Layouts.BUFFER_PARAMS_QUEUE_AFFINITY).isEqualTo(16);
    assertThat(Layouts.BUFFER_PARAMS_MIN_ALIGNMENT).isEqualTo(24);
  }

  @Test
  void structsPassedByValueAreWordAligned() {
    // The native linker classifies by-value structs by their layout: 8-byte alignment matches C.
    for (GroupLayout layout :
        new GroupLayout[] {
          Layouts.STRING_VIEW, Layouts.ALLOCATOR, Layouts.BYTE_SPAN, Layouts.TIMEOUT,
          Layouts.VM_TYPE_DEF, Layouts.VM_FUNCTION, Layouts.BUFFER_PARAMS, Layouts.VM_REF,
          Layouts.VM_VALUE, Layouts.VM_VARIANT
        }) {
      assertThat(layout.byteAlignment()).isEqualTo(8);
    }
  }

  @Test
  void semaphoreListIsACountAndTwoPointers() {
    assertThat(Layouts.SEMAPHORE_LIST.byteSize()).isEqualTo(24);
    assertThat(Layouts.SEMAPHORE_LIST_COUNT).isEqualTo(0);
    assertThat(Layouts.SEMAPHORE_LIST_SEMAPHORES).isEqualTo(8);
    assertThat(Layouts.SEMAPHORE_LIST_VALUES).isEqualTo(16);
  }
}
