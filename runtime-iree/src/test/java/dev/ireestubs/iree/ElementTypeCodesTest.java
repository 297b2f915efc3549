package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HAL element type codes of iree-runtime-c-api.md, section 1.6: buffer views carry them to
 * {@code iree_hal_buffer_view_allocate_buffer_copy} unchanged, so the codes iree-stubs' element
 * types produce must be exactly these, with the byte sizes IREE stores them in.
 */
class ElementTypeCodesTest {

  private static Map<ElementType, Integer> docTable() {
    Map<ElementType, Integer> m = new LinkedHashMap<>();
    m.put(ElementType.F16, 0x21000010);
    m.put(ElementType.F32, 0x21000020);
    m.put(ElementType.F64, 0x21000040);
    m.put(ElementType.BF16, 0x22000010);
    m.put(ElementType.I1, 0x13000008);
    m.put(ElementType.COMPLEX64, 0x23000040);
    m.put(ElementType.COMPLEX128, 0x23000080);
    m.put(ElementType.F8E4M3FN, 0x25000008);
    m.put(ElementType.F8E5M2, 0x24000008);
    m.put(ElementType.I8, 0x10000008);
    m.put(ElementType.SI8, 0x11000008);
    m.put(ElementType.UI8, 0x12000008);
    m.put(ElementType.I16, 0x10000010);
    m.put(ElementType.SI16, 0x11000010);
    m.put(ElementType.UI16, 0x12000010);
    m.put(ElementType.I32, 0x10000020);
    m.put(ElementType.SI32, 0x11000020);
    m.put(ElementType.UI32, 0x12000020);
    m.put(ElementType.I64, 0x10000040);
    m.put(ElementType.SI64, 0x11000040);
    m.put(ElementType.UI64, 0x12000040);
    m.put(ElementType.integer(4), 0x10000004);
    return m;
  }

  @Test
  void elementTypesHaveTheDocumentedCodes() {
    for (Map.Entry<ElementType, Integer> e : docTable().entrySet()) {
      assertThat(e.getKey().halCode()).hasValue(e.getValue());
      assertThat(ElementType.fromHalCode(e.getValue())).hasValue(e.getKey());
    }
  }

  @Test
  void bufferViewsStoreWholeBytes() {
    assertThat(BufferView.elementBytes(0x21000020)).isEqualTo(4);
    assertThat(BufferView.elementBytes(0x13000008)).isEqualTo(1); // i1 is BOOL_8: byte storage
    assertThat(BufferView.elementBytes(0x10000040)).isEqualTo(8);
    assertThat(BufferView.elementBytes(0x23000080)).isEqualTo(16);
    assertThat(BufferView.elementBytes(0x21000010)).isEqualTo(2);
  }

  @Test
  void bufferViewsKeepTheCodeTheyAreGiven() {
    BufferView view = BufferView.allocate(0x22000010, 2, 3);
    assertThat(view.elementTypeCode()).isEqualTo(0x22000010);
    assertThat(view.byteLength()).isEqualTo(12);
    assertThat(view.isDirect()).isTrue();
  }
}
