package dev.ireestubs.iree;

import dev.ireestubs.vm.BufferView;

/**
 * The IREE buffer views a session last made over imported Java memory, kept for the next call that
 * passes the same memory with the same element type and shape: the view is then handed to IREE
 * again instead of importing the memory anew. An imported view reads the Java memory itself, so
 * reusing it passes exactly what the caller's buffer holds at the time of the call. (This is how a
 * loop that refills the same input arrays, or passes the same weights, calls at the cost of a call
 * with prebuilt inputs.)
 *
 * <p>At most {@link #CAPACITY} views are kept, the oldest replaced first; each holds its Java
 * memory pinned (through the import's pin: valid, and not freed by its owner's close or the end of
 * the call it was lent to) until it is replaced or the session closes. A hit allocates nothing.
 * Used under the session's lock.
 */
final class ImportedViews {

  /** Views kept per session. */
  static final int CAPACITY = 8;

  private final Native api;
  private final long[] views = new long[CAPACITY]; // 0: empty slot; else a reference we own
  private final long[] addresses = new long[CAPACITY];
  private final int[] lengths = new int[CAPACITY];
  private final int[] elementTypes = new int[CAPACITY];
  private final long[][] shapes = new long[CAPACITY][];
  private int next;

  ImportedViews(Native api) {
    this.api = api;
  }

  /**
   * A new reference (the caller's to release) to the kept view of exactly this memory, element type
   * and shape; 0 when none is kept.
   */
  long find(BufferView view, long address, int length) {
    for (int i = 0; i < CAPACITY; i++) {
      if (views[i] != 0
          && addresses[i] == address
          && lengths[i] == length
          && elementTypes[i] == view.elementTypeCode()
          && sameShape(shapes[i], view)) {
        api.bufferViews().bufferViewRetain(views[i]);
        return views[i];
      }
    }
    return 0;
  }

  /** Keeps a reference to {@code bufferView}, made over this memory, replacing the oldest. */
  void keep(long bufferView, BufferView view, long address, int length) {
    int slot = next;
    next = (next + 1) % CAPACITY;
    release(slot);
    api.bufferViews().bufferViewRetain(bufferView);
    views[slot] = bufferView;
    addresses[slot] = address;
    lengths[slot] = length;
    elementTypes[slot] = view.elementTypeCode();
    long[] kept = shapes[slot];
    shapes[slot] = kept != null && sameShape(kept, view) ? kept : view.shape(); // no copy if same
  }

  /** Releases every kept view (their imports then let the Java memory go). */
  void clear() {
    for (int i = 0; i < CAPACITY; i++) {
      release(i);
    }
  }

  private void release(int slot) {
    long old = views[slot];
    if (old != 0) {
      views[slot] = 0; // the shape stays, to be reused by the next view of the same shape
      api.bufferViews().bufferViewRelease(old);
    }
  }

  private static boolean sameShape(long[] kept, BufferView view) {
    if (kept.length != view.rank()) {
      return false;
    }
    for (int axis = 0; axis < kept.length; axis++) {
      if (kept[axis] != view.dim(axis)) {
        return false;
      }
    }
    return true;
  }
}
