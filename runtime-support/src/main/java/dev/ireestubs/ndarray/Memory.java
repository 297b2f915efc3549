package dev.ireestubs.ndarray;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * The memory under one array and all its views, and whether it is still usable: the one place
 * that frees it. See "Ownership and closing" in {@link NdArray}.
 *
 * <p>Memory the arrays allocated themselves ({@link #allocate}) is freed by {@link #close()} at
 * once, through {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), unless a
 * buffer over it has been handed out ({@link #escape()}): then only the garbage collector can know
 * when nobody reads it any more, and freeing is left to it, as before. Memory of a caller's buffer
 * ({@link #foreign()}) is never freed here.
 *
 * <p>Not thread-safe, as arrays are not: closing an array while another thread uses it is a race.
 */
final class Memory {

  /** {@code Unsafe.invokeCleaner(ByteBuffer)} bound to the instance, or null when unavailable. */
  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  /** All of the memory: native order, position 0, capacity = limit = its byte length. */
  final ByteBuffer data;

  /** The buffer {@link ByteBuffer#allocateDirect} returned (not a slice), or null if not ours. */
  private ByteBuffer block;

  private boolean escaped;
  private boolean closed;

  private Memory(ByteBuffer data, ByteBuffer block) {
    this.data = data;
    this.block = block;
  }

  /**
   * Memory this package allocated: {@code data} (a slice of {@code block}, or {@code block} itself)
   * is the array's bytes, {@code block} what {@code allocateDirect} returned.
   */
  static Memory owning(ByteBuffer data, ByteBuffer block) {
    return new Memory(data, block);
  }

  /** A caller's memory (wrapped buffers, views from a backend): closing never frees it. */
  static Memory foreign(ByteBuffer data) {
    return new Memory(data, null);
  }

  boolean isClosed() {
    return closed;
  }

  /** Notes that a buffer over this memory left the array's control, so it is never freed early. */
  void escape() {
    escaped = true;
  }

  /** True when {@link #close()} frees the memory at once (it is ours, and nothing escaped). */
  boolean freesOnClose() {
    return block != null && !escaped && INVOKE_CLEANER != null;
  }

  /** Marks the memory closed and frees it when {@link #freesOnClose()}. Idempotent. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    ByteBuffer toFree = block;
    block = null;
    if (toFree != null && !escaped && INVOKE_CLEANER != null) {
      try {
        INVOKE_CLEANER.invokeExact(toFree);
      } catch (Throwable e) {
        // Not freeable here after all (cannot happen for a buffer allocateDirect returned): the
        // garbage collector frees it when the buffer is unreachable, as for escaped memory.
      }
    }
  }

  private static MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field field = unsafeClass.getDeclaredField("theUnsafe");
      field.setAccessible(true);
      Object unsafe = field.get(null);
      return MethodHandles.lookup()
          .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // jdk.unsupported absent (a jlink image without it) or the method gone: close() then only
      // marks arrays closed, and the garbage collector frees their memory.
      return null;
    }
  }
}
