package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class BufferViewTest {

  private static final int F32 = 0x21000020;

  @Test
  void aWholeBufferIsSharedAndTheCallersPositionDoesNotMoveTheView() {
    ByteBuffer bytes = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    bytes.putFloat(0, 1.5f).putFloat(4, 2.5f);
    BufferView view = BufferView.wrap(F32, new long[] {2}, bytes);
    bytes.position(4).limit(6); // the caller moves its own buffer afterwards
    ByteBuffer data = view.data();
    assertThat(data.position()).isEqualTo(0);
    assertThat(data.remaining()).isEqualTo(8);
    assertThat(data.order()).isEqualTo(ByteOrder.nativeOrder());
    assertThat(data.getFloat(4)).isEqualTo(2.5f);
    bytes.putFloat(0, 9f); // shared, not copied
    assertThat(view.data().getFloat(0)).isEqualTo(9f);
    assertThat(view.byteLength()).isEqualTo(8);
  }

  @Test
  void aBufferFromAPositionIsViewedFromThere() {
    ByteBuffer bytes = ByteBuffer.allocateDirect(12).order(ByteOrder.nativeOrder());
    bytes.putFloat(4, 3.5f);
    bytes.position(4);
    BufferView view = BufferView.wrap(F32, new long[] {2}, bytes);
    bytes.position(0);
    assertThat(view.byteLength()).isEqualTo(8);
    assertThat(view.data().remaining()).isEqualTo(8);
    assertThat(view.data().getFloat(0)).isEqualTo(3.5f);
  }

  @Test
  void theShapeIsCopiedInAndOut() {
    long[] shape = {2};
    BufferView view = BufferView.wrap(F32, shape, ByteBuffer.allocateDirect(8));
    shape[0] = 5;
    assertThat(view.shape()).isEqualTo(new long[] {2});
    view.shape()[0] = 7;
    assertThat(view.dim(0)).isEqualTo(2);
    assertThat(view.elementType()).hasValue(dev.ireestubs.abi.ElementType.F32);
  }
}
