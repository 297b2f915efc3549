package dev.ireestubs.vmfb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Bounds-checked reading of one FlatBuffer whose contents are untrusted.
 *
 * <p>Every offset is followed only after checking that its target, and the whole object there
 * (table, vtable, vector, string with its terminating NUL), lies inside the buffer; a violation is
 * a {@link VmfbFormatException} naming the schema path being read (e.g. {@code
 * exported_functions[2].local_name}) and the absolute byte offset in the input. Lengths are checked
 * against the bytes that remain before anything is allocated, and nothing here loops or recurses
 * except over a vector whose length has been so checked.
 *
 * <p>Offsets are unsigned 32-bit, vtable offsets signed; all arithmetic is done in {@code long} so
 * that no hostile value can wrap around. Strings are decoded once per position, so a module whose
 * offsets alias one long string many times costs no more than the string itself.
 */
final class FlatBuffer {

  private final ByteBuffer buf;
  private final int size;
  private final long base;
  private final String source;
  private final Map<Long, String> strings = new HashMap<>();

  /**
   * @param buf little-endian, the FlatBuffer at index 0, its limit the end of the FlatBuffer
   * @param base the offset of index 0 in the input, for messages
   * @param source the source name, for messages
   */
  FlatBuffer(ByteBuffer buf, long base, String source) {
    this.buf = buf;
    this.size = buf.limit();
    this.base = base;
    this.source = source;
  }

  int size() {
    return size;
  }

  /** The little-endian buffer itself, index 0 the FlatBuffer's first byte; never modify it. */
  java.nio.ByteBuffer buffer() {
    return buf;
  }

  VmfbFormatException error(String path, long pos, String detail) {
    return new VmfbFormatException(
        source, path + ": " + detail + " (at byte " + (base + pos) + " of the input)");
  }

  private void need(String path, long pos, long length, String what) throws VmfbFormatException {
    if (pos < 0 || length < 0 || pos > size || length > size - pos) {
      throw error(
          path,
          pos,
          what
              + " of "
              + length
              + " bytes runs past the end of the FlatBuffer ("
              + size
              + " bytes)");
    }
  }

  int u8(long pos) {
    return buf.get((int) pos) & 0xFF;
  }

  int u16(long pos) {
    return buf.getShort((int) pos) & 0xFFFF;
  }

  int i32(long pos) {
    return buf.getInt((int) pos);
  }

  long u32(long pos) {
    return Integer.toUnsignedLong(buf.getInt((int) pos));
  }

  /** The four identifier bytes at 4..7, as text. */
  String identifier() {
    byte[] b = new byte[4];
    buf.get(4, b, 0, 4);
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  /** The root table. */
  Table root() throws VmfbFormatException {
    need("root offset", 0, 8, "the root offset and file identifier");
    return tableAt(0, "BytecodeModuleDef");
  }

  /** The table that the uoffset at {@code offsetPos} points to. */
  Table tableAt(long offsetPos, String path) throws VmfbFormatException {
    need(path, offsetPos, 4, "an offset");
    long pos = offsetPos + u32(offsetPos);
    if (pos > size - 4L) {
      throw error(
          path,
          offsetPos,
          "offset "
              + u32(offsetPos)
              + " points to byte "
              + (base + pos)
              + ", outside the FlatBuffer ("
              + size
              + " bytes)");
    }
    long vtable = pos - i32(pos);
    if (vtable < 0 || vtable > size - 4L) {
      throw error(
          path,
          pos,
          "the table's vtable offset "
              + i32(pos)
              + " points to byte "
              + (base + vtable)
              + ", outside the FlatBuffer");
    }
    int vtableLength = u16(vtable);
    int tableLength = u16(vtable + 2);
    if (vtableLength < 4 || vtableLength % 2 != 0) {
      throw error(
          path,
          vtable,
          "the vtable length is " + vtableLength + "; a vtable is an even number of bytes >= 4");
    }
    need(path, vtable, vtableLength, "the vtable");
    if (tableLength < 4) {
      throw error(path, vtable, "the table's inline size is " + tableLength + ", less than 4");
    }
    need(path, pos, tableLength, "the table");
    return new Table(pos, vtable, (vtableLength - 4) / 2, tableLength, path);
  }

  /** A vector's element count and first element, after checking its bytes are in the buffer. */
  Vector vectorAt(long offsetPos, int elementSize, String path) throws VmfbFormatException {
    need(path, offsetPos, 4, "an offset");
    long pos = offsetPos + u32(offsetPos);
    need(path, pos, 4, "the vector length");
    long count = u32(pos);
    long available = (size - pos - 4) / elementSize;
    if (count > available) {
      throw error(
          path,
          pos,
          "a vector of "
              + count
              + " elements of "
              + elementSize
              + " bytes runs past the end of the FlatBuffer (room for "
              + available
              + ")");
    }
    return new Vector(pos + 4, (int) count, elementSize, path);
  }

  /** The string that the uoffset at {@code offsetPos} points to. */
  String stringAt(long offsetPos, String path) throws VmfbFormatException {
    need(path, offsetPos, 4, "an offset");
    long pos = offsetPos + u32(offsetPos);
    String cached = strings.get(pos);
    if (cached != null) {
      return cached;
    }
    need(path, pos, 4, "the string length");
    long length = u32(pos);
    if (length >= size - pos - 4) {
      throw error(
          path,
          pos,
          "a string of "
              + length
              + " bytes and its NUL terminator run past the end of the FlatBuffer ("
              + size
              + " bytes)");
    }
    if (buf.get((int) (pos + 4 + length)) != 0) {
      throw error(path, pos, "the string of " + length + " bytes is not NUL-terminated");
    }
    byte[] b = new byte[(int) length];
    buf.get((int) (pos + 4), b, 0, b.length);
    String s = new String(b, StandardCharsets.UTF_8);
    strings.put(pos, s);
    return s;
  }

  /** A table: its position, vtable and inline size, all checked. */
  final class Table {
    final long pos;
    private final long vtable;
    private final int slots;
    private final int length;
    final String path;

    private Table(long pos, long vtable, int slots, int length, String path) {
      this.pos = pos;
      this.vtable = vtable;
      this.slots = slots;
      this.length = length;
      this.path = path;
    }

    /** The number of field slots in the vtable. */
    int slots() {
      return slots;
    }

    /** Whether field {@code id} is present (non-default). */
    boolean has(int id) {
      return id >= 0 && id < slots && u16(vtable + 4 + 2L * id) != 0;
    }

    /**
     * The absolute position of field {@code id}, checked to hold {@code width} bytes; -1 absent.
     */
    long field(int id, int width, String name) throws VmfbFormatException {
      if (!has(id)) {
        return -1;
      }
      int offset = u16(vtable + 4 + 2L * id);
      if (offset < 4 || offset > length - width) {
        throw error(
            path + "." + name,
            vtable,
            "field "
                + id
                + " at table offset "
                + offset
                + " with "
                + width
                + " bytes lies outside the table's "
                + length
                + " inline bytes");
      }
      return pos + offset;
    }

    /** A u32 field, {@code dflt} when absent. */
    long u32(int id, String name, long dflt) throws VmfbFormatException {
      long at = field(id, 4, name);
      return at < 0 ? dflt : FlatBuffer.this.u32(at);
    }

    /** An i32 field, {@code dflt} when absent. */
    int i32(int id, String name, int dflt) throws VmfbFormatException {
      long at = field(id, 4, name);
      return at < 0 ? dflt : FlatBuffer.this.i32(at);
    }

    /** A string field, null when absent. */
    String string(int id, String name) throws VmfbFormatException {
      long at = field(id, 4, name);
      return at < 0 ? null : stringAt(at, path + "." + name);
    }

    /** A sub-table field, null when absent. */
    Table table(int id, String name) throws VmfbFormatException {
      long at = field(id, 4, name);
      return at < 0 ? null : tableAt(at, path + "." + name);
    }

    /** A vector field, null when absent. */
    Vector vector(int id, int elementSize, String name) throws VmfbFormatException {
      long at = field(id, 4, name);
      return at < 0 ? null : vectorAt(at, elementSize, path + "." + name);
    }
  }

  /** A vector whose elements all lie inside the buffer. */
  final class Vector {
    final long start;
    final int count;
    private final int elementSize;
    final String path;

    private Vector(long start, int count, int elementSize, String path) {
      this.start = start;
      this.count = count;
      this.elementSize = elementSize;
      this.path = path;
    }

    /** The position of element {@code i}. */
    long element(int i) {
      return start + (long) i * elementSize;
    }

    /** Element {@code i} of a vector of tables. */
    Table table(int i) throws VmfbFormatException {
      return tableAt(element(i), path + "[" + i + "]");
    }
  }
}
