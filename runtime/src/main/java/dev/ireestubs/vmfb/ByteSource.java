package dev.ireestubs.vmfb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Random access to the bytes of the input, addressed by {@code long} so that a file larger than 2
 * GiB (a module with large embedded constants) can still be read: only the ZIP directory and the
 * module's FlatBuffer (which FlatBuffers limits to 2 GiB) are ever brought into memory.
 *
 * <p>{@link #check}, {@link #bytes} and {@link #slice} check their range against {@link #size()}
 * and report a violation as a {@link VmfbFormatException} naming {@code what}; the abstract
 * accessors are called only with checked ranges.
 */
abstract class ByteSource {

  final String name;

  ByteSource(String name) {
    this.name = name;
  }

  /** The number of bytes. */
  abstract long size();

  /** Copies {@code length} bytes at {@code offset}; the range has been checked. */
  abstract void copy(long offset, byte[] into, int length) throws IOException;

  /** A little-endian view of the range, position 0; the range has been checked. */
  abstract ByteBuffer view(long offset, int length) throws IOException;

  final VmfbFormatException error(String detail) {
    return new VmfbFormatException(name, detail);
  }

  /** Fails unless {@code [offset, offset + length)} lies inside the source. */
  final void check(long offset, long length, String what) throws VmfbFormatException {
    if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
      throw error(
          what
              + ": "
              + length
              + " bytes at byte "
              + offset
              + " run past the end of the input ("
              + size()
              + " bytes); the file is truncated or corrupt");
    }
  }

  /** The bytes of a checked range, for small headers only (the caller bounds the length). */
  final byte[] bytes(long offset, int length, String what) throws IOException {
    check(offset, length, what);
    byte[] b = new byte[length];
    copy(offset, b, length);
    return b;
  }

  /** A little-endian view of a checked range. */
  final ByteBuffer slice(long offset, long length, String what) throws IOException {
    check(offset, length, what);
    if (length > Integer.MAX_VALUE - 8) {
      throw error(
          what + " is " + length + " bytes; a FlatBuffer is at most 2 GiB, so the size is corrupt");
    }
    return view(offset, (int) length);
  }

  /** Over the remaining bytes of a buffer, which is neither retained nor modified. */
  static ByteSource of(ByteBuffer buffer, String name) {
    ByteBuffer b = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    return new ByteSource(name) {
      @Override
      long size() {
        return b.limit();
      }

      @Override
      void copy(long offset, byte[] into, int length) {
        b.get((int) offset, into, 0, length);
      }

      @Override
      ByteBuffer view(long offset, int length) {
        return b.slice((int) offset, length).order(ByteOrder.LITTLE_ENDIAN);
      }
    };
  }

  /** Over an open file channel; the caller closes it once reading is done. */
  static ByteSource of(FileChannel channel, String name) throws IOException {
    long size = channel.size();
    return new ByteSource(name) {
      @Override
      long size() {
        return size;
      }

      @Override
      void copy(long offset, byte[] into, int length) throws IOException {
        ByteBuffer dst = ByteBuffer.wrap(into, 0, length);
        while (dst.hasRemaining()) {
          int n = channel.read(dst, offset + dst.position());
          if (n < 0) {
            throw error(
                "the file shrank while being read: expected "
                    + size
                    + " bytes, ended at "
                    + (offset + dst.position()));
          }
        }
      }

      @Override
      ByteBuffer view(long offset, int length) throws IOException {
        if (length <= 1 << 16) {
          byte[] b = new byte[length];
          copy(offset, b, length);
          return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        }
        return channel
            .map(FileChannel.MapMode.READ_ONLY, offset, length)
            .order(ByteOrder.LITTLE_ENDIAN);
      }
    };
  }
}
