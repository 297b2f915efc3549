package dev.ireestubs.ndarray;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The native address of a direct buffer, to prove that two buffers are the same memory (identity of
 * the bytes, not of the buffer objects). Uses {@code java.lang.foreign} on Java 22+, else {@code
 * sun.misc.Unsafe}; both by reflection, so this compiles for release 17.
 */
final class NativeMemory {

  private NativeMemory() {}

  /** The address of element 0 of {@code buffer} (its index 0, not its position). */
  static long address(ByteBuffer buffer) {
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException("not a direct buffer");
    }
    if (Runtime.version().feature() >= 22) {
      try {
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        Object s =
            segment
                .getMethod("ofBuffer", Buffer.class)
                .invoke(null, buffer.duplicate().position(0));
        return (long) segment.getMethod("address").invoke(s);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
      theUnsafe.setAccessible(true);
      Object unsafe = theUnsafe.get(null);
      Field address = Buffer.class.getDeclaredField("address");
      Method offsetOf = unsafeClass.getMethod("objectFieldOffset", Field.class);
      Method getLong = unsafeClass.getMethod("getLong", Object.class, long.class);
      long offset = (long) offsetOf.invoke(unsafe, address);
      return (long) getLong.invoke(unsafe, buffer, offset);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** The bytes of {@code buffer} from 0 to its limit. */
  static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer b = buffer.duplicate();
    b.position(0);
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }
}
