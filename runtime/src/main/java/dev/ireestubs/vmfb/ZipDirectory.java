package dev.ireestubs.vmfb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds one stored entry of a ZIP archive through its central directory (ZIP64 included), reading
 * only the end records, the directory entries up to the one wanted, and that entry's local header.
 *
 * <p>Every count, size and offset comes from the input and is checked against the input's size
 * before it is used; the directory walk is bounded by the directory's byte size, and the end-record
 * search by the 64 KiB a ZIP comment can take.
 */
final class ZipDirectory {

  static final int LOCAL_HEADER = 0x04034b50;
  private static final int CENTRAL_HEADER = 0x02014b50;
  private static final int END = 0x06054b50;
  private static final int ZIP64_LOCATOR = 0x07064b50;
  private static final int ZIP64_END = 0x06064b50;
  private static final int END_SIZE = 22;
  private static final int MAX_COMMENT = 0xFFFF;
  private static final long U32_MAX = 0xFFFFFFFFL;
  private static final int LISTED_NAMES = 8;

  private ZipDirectory() {}

  /** Where a stored entry's bytes are. */
  record Entry(String name, long dataOffset, long size) {}

  /** The stored entry {@code wanted}, or a {@link VmfbFormatException} saying why not. */
  static Entry findStored(ByteSource src, String wanted) throws IOException {
    long size = src.size();
    if (size < END_SIZE) {
      throw src.error(
          "a ZIP archive of "
              + size
              + " bytes is too short to hold its end-of-central-directory record (22 bytes);"
              + " the file is truncated");
    }
    int tailLength = (int) Math.min(size, END_SIZE + MAX_COMMENT);
    long tailStart = size - tailLength;
    ByteBuffer tail = le(src.bytes(tailStart, tailLength, "the ZIP end records"));
    int end = -1;
    for (int i = tailLength - END_SIZE; i >= 0; i--) {
      if (tail.getInt(i) == END && i + END_SIZE + u16(tail, i + 20) <= tailLength) {
        end = i;
        break;
      }
    }
    if (end < 0) {
      throw src.error(
          "the file starts like a ZIP archive but has no end-of-central-directory record"
              + " (PK\\5\\6) in its last "
              + tailLength
              + " bytes; the archive is truncated or corrupt");
    }
    long endPos = tailStart + end;
    long entries = u16(tail, end + 10);
    long directorySize = u32(tail, end + 12);
    long directoryOffset = u32(tail, end + 16);
    if (entries == 0xFFFF || directorySize == U32_MAX || directoryOffset == U32_MAX) {
      long locator = endPos - 20;
      if (locator >= 0
          && le(src.bytes(locator, 20, "the ZIP64 end locator")).getInt(0) == ZIP64_LOCATOR) {
        long zip64End = le(src.bytes(locator, 20, "the ZIP64 end locator")).getLong(8);
        if (zip64End < 0 || zip64End > locator - 56) {
          throw src.error(
              "the ZIP64 end-of-central-directory locator points to byte "
                  + zip64End
                  + ", outside the archive before it (byte "
                  + locator
                  + ")");
        }
        ByteBuffer z = le(src.bytes(zip64End, 56, "the ZIP64 end-of-central-directory record"));
        if (z.getInt(0) != ZIP64_END) {
          throw src.error(
              "no ZIP64 end-of-central-directory record at byte "
                  + zip64End
                  + " where the locator points");
        }
        entries = z.getLong(32);
        directorySize = z.getLong(40);
        directoryOffset = z.getLong(48);
      }
    }
    if (entries < 0
        || directorySize < 0
        || directoryOffset < 0
        || directoryOffset > endPos
        || directorySize > endPos - directoryOffset) {
      throw src.error(
          "the ZIP central directory ("
              + directorySize
              + " bytes at byte "
              + directoryOffset
              + ") does not lie before its end record at byte "
              + endPos
              + "; the archive is corrupt");
    }
    long pos = directoryOffset;
    long directoryEnd = directoryOffset + directorySize;
    List<String> seen = new ArrayList<>();
    long index = 0;
    for (; index < entries && pos <= directoryEnd - 46; index++) {
      ByteBuffer h = le(src.bytes(pos, 46, "ZIP central directory entry " + index));
      if (h.getInt(0) != CENTRAL_HEADER) {
        throw src.error(
            "ZIP central directory entry "
                + index
                + " at byte "
                + pos
                + " does not start with the signature PK\\1\\2; the archive is corrupt");
      }
      int nameLength = u16(h, 28);
      int extraLength = u16(h, 30);
      int commentLength = u16(h, 32);
      long next = pos + 46 + nameLength + extraLength + commentLength;
      if (next > directoryEnd) {
        throw src.error(
            "ZIP central directory entry "
                + index
                + " at byte "
                + pos
                + " runs past the end of the directory (byte "
                + directoryEnd
                + ")");
      }
      byte[] nameBytes = src.bytes(pos + 46, nameLength, "a ZIP entry name");
      String name = new String(nameBytes, StandardCharsets.UTF_8);
      if (name.equals(wanted)) {
        byte[] extra = src.bytes(pos + 46 + nameLength, extraLength, "a ZIP extra field");
        return entry(src, h, name, le(extra));
      }
      if (seen.size() < LISTED_NAMES) {
        seen.add(name);
      }
      pos = next;
    }
    throw src.error(
        "the ZIP archive has no "
            + wanted
            + " entry ("
            + index
            + (index == 1 ? " entry" : " entries")
            + (seen.isEmpty() ? "" : ": " + String.join(", ", seen))
            + (index > seen.size() ? ", ..." : "")
            + "); an IREE module archive stores the module as "
            + wanted);
  }

  private static Entry entry(ByteSource src, ByteBuffer h, String name, ByteBuffer extra)
      throws IOException {
    int flags = u16(h, 8);
    int method = u16(h, 10);
    long compressed = u32(h, 20);
    long uncompressed = u32(h, 24);
    long localHeader = u32(h, 42);
    if (uncompressed == U32_MAX || compressed == U32_MAX || localHeader == U32_MAX) {
      ByteBuffer zip64 = zip64Extra(extra);
      if (zip64 == null) {
        throw src.error(
            "ZIP entry "
                + name
                + " marks its sizes or offset as ZIP64 (0xFFFFFFFF) but has no ZIP64 extra field");
      }
      int needed =
          (uncompressed == U32_MAX ? 8 : 0)
              + (compressed == U32_MAX ? 8 : 0)
              + (localHeader == U32_MAX ? 8 : 0);
      if (zip64.limit() < needed) {
        throw src.error(
            "the ZIP64 extra field of entry "
                + name
                + " has "
                + zip64.limit()
                + " bytes, too few for the "
                + needed
                + " its header calls for");
      }
      int at = 0;
      if (uncompressed == U32_MAX) {
        uncompressed = zip64.getLong(at);
        at += 8;
      }
      if (compressed == U32_MAX) {
        compressed = zip64.getLong(at);
        at += 8;
      }
      if (localHeader == U32_MAX) {
        localHeader = zip64.getLong(at);
      }
    }
    if ((flags & 1) != 0) {
      throw src.error("ZIP entry " + name + " is encrypted; IREE stores it in the clear");
    }
    if (method != 0) {
      throw src.error(
          "ZIP entry "
              + name
              + " is compressed (method "
              + method
              + (method == 8 ? ", deflate" : "")
              + "); IREE writes it stored (method 0) and this reader reads stored entries only");
    }
    if (compressed != uncompressed) {
      throw src.error(
          "ZIP entry "
              + name
              + " is stored but its compressed size "
              + compressed
              + " differs from its size "
              + uncompressed);
    }
    if (uncompressed < 0 || localHeader < 0) {
      throw src.error("ZIP entry " + name + " has a size or offset beyond 2^63");
    }
    ByteBuffer local = le(src.bytes(localHeader, 30, "the local header of ZIP entry " + name));
    if (local.getInt(0) != LOCAL_HEADER) {
      throw src.error(
          "the central directory puts the local header of "
              + name
              + " at byte "
              + localHeader
              + ", but no local header (PK\\3\\4) is there");
    }
    if (u16(local, 8) != method) {
      throw src.error(
          "ZIP entry "
              + name
              + ": the local header says method "
              + u16(local, 8)
              + ", the central directory method "
              + method);
    }
    int localNameLength = u16(local, 26);
    byte[] localName = src.bytes(localHeader + 30, localNameLength, "a ZIP local entry name");
    if (!new String(localName, StandardCharsets.UTF_8).equals(name)) {
      throw src.error(
          "the local header at byte "
              + localHeader
              + " names "
              + new String(localName, StandardCharsets.UTF_8)
              + ", but the central directory says "
              + name);
    }
    long data = localHeader + 30 + localNameLength + u16(local, 28);
    src.check(data, uncompressed, "ZIP entry " + name);
    return new Entry(name, data, uncompressed);
  }

  private static ByteBuffer zip64Extra(ByteBuffer extra) {
    int at = 0;
    while (at + 4 <= extra.limit()) {
      int id = u16(extra, at);
      int length = u16(extra, at + 2);
      if (at + 4 + length > extra.limit()) {
        return null;
      }
      if (id == 0x0001) {
        return extra.slice(at + 4, length).order(ByteOrder.LITTLE_ENDIAN);
      }
      at += 4 + length;
    }
    return null;
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static int u16(ByteBuffer b, int at) {
    return b.getShort(at) & 0xFFFF;
  }

  private static long u32(ByteBuffer b, int at) {
    return Integer.toUnsignedLong(b.getInt(at));
  }
}
