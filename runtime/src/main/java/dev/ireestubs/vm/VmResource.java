package dev.ireestubs.vm;

/**
 * Something that may hold native memory or another resource that must be released explicitly: a ref
 * a native backend hands out, an {@link OpaqueRef} with a release action, a {@link VmList} (which
 * releases what it holds). Use try-with-resources.
 *
 * <p>{@link VmRef} is a plain interface: a ref that holds nothing to release (such as a {@link
 * BufferView} over Java-managed memory) does not implement this one. Code that holds a {@code
 * VmRef} of unknown origin releases it with {@link #closeIfResource(Object)}.
 *
 * <p>Contract for implementations: {@link #close()} is idempotent and safe to call from any thread
 * once; after it, operations that need the resource throw {@link IllegalStateException}.
 */
public interface VmResource extends AutoCloseable {

  /** Releases the resource; later calls do nothing. Throws no checked exception. */
  @Override
  void close();

  /**
   * True once {@link #close()} has been called.
   *
   * @return true after the first close
   */
  boolean isClosed();

  /**
   * Closes {@code o} when it is a {@link VmResource}; does nothing otherwise (or for null).
   *
   * @param o any list element, possibly null
   */
  static void closeIfResource(Object o) {
    if (o instanceof VmResource vmResource) {
      vmResource.close();
    }
  }
}
