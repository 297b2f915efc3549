package dev.ireestubs.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Wraps a module in ZIP archives, for {@link TestModules#ireeZip} and {@link TestModules#javaZip}:
 * the archive IREE writes (written here byte by byte: 64-byte aligned data, ZIP64 records) and a
 * plain one from {@link ZipOutputStream}.
 */
final class ModuleArchives {

  private ModuleArchives() {}

  /** See {@link TestModules#ireeZip}. */
  static byte[] ireeZip(byte[] sizePrefixedModule, boolean deflateMarker) {
    int flatBuffer = sizePrefixedModule.length - 4;
    int padded = roundUp(4 + flatBuffer, 64);
    byte[] module = Arrays.copyOf(sizePrefixedModule, padded);
    ByteBuffer.wrap(module).order(ByteOrder.LITTLE_ENDIAN).putInt(0, padded - 4);
    long moduleRecorded = padded - 4L;
    byte[] executable = "\u007fELF executable bytes".getBytes(StandardCharsets.ISO_8859_1);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<byte[]> central = new ArrayList<>();
    String[] names = {"module.fb", "main_dispatch_0_embedded_elf_x86_64.so"};
    byte[][] datas = {module, executable};
    long[] recorded = {moduleRecorded, executable.length};
    for (int i = 0; i < 2; i++) {
      byte[] name = names[i].getBytes(StandardCharsets.UTF_8);
      int method = i == 0 && deflateMarker ? 8 : 0;
      central.add(entry(out, name, datas[i], recorded[i], method));
    }
    long directoryAt = out.size();
    for (byte[] c : central) {
      out.writeBytes(c);
    }
    long directorySize = out.size() - directoryAt;
    endRecords(out, directoryAt, directorySize);
    return out.toByteArray();
  }

  /**
   * Writes one entry's local header (a 0xCAFE padding field so that the data is 64-byte aligned,
   * then a ZIP64 sizes field) and its data; returns its central directory record.
   */
  @SuppressWarnings("ByteBufferBackingArray") // every buffer is le(n): allocated, offset 0
  private static byte[] entry(
      ByteArrayOutputStream out, byte[] name, byte[] data, long recorded, int method) {
    long headerAt = out.size();
    // Pad so that the data is 64-byte aligned: 30 + name + (4 + pad) + 20 (ZIP64 field).
    int fixed = 30 + name.length + 4 + 20;
    int pad = (int) (roundUp(headerAt + fixed, 64) - (headerAt + fixed));
    CRC32 crc = new CRC32();
    crc.update(data, 0, (int) Math.min(data.length, recorded));
    ByteBuffer h = le(30 + name.length + 4 + pad + 20);
    h.putInt(0x04034b50).putShort((short) 45).putShort((short) 0);
    h.putShort((short) method).putShort((short) 0).putShort((short) 0x21);
    h.putInt((int) crc.getValue()).putInt(-1).putInt(-1);
    h.putShort((short) name.length).putShort((short) (4 + pad + 20));
    h.put(name);
    h.putShort((short) 0xFECA).putShort((short) pad).put(new byte[pad]);
    h.putShort((short) 1).putShort((short) 16).putLong(recorded).putLong(recorded);
    out.writeBytes(h.array());
    out.writeBytes(data);

    ByteBuffer c = le(46 + name.length + 28);
    c.putInt(0x02014b50).putShort((short) 45).putShort((short) 45).putShort((short) 0);
    c.putShort((short) method).putShort((short) 0).putShort((short) 0x21);
    c.putInt((int) crc.getValue()).putInt(-1).putInt(-1);
    c.putShort((short) name.length).putShort((short) 28).putShort((short) 0);
    c.putShort((short) 0).putShort((short) 0).putInt(0).putInt(-1);
    c.put(name);
    c.putShort((short) 1).putShort((short) 24).putLong(recorded).putLong(recorded);
    c.putLong(headerAt);
    return c.array();
  }

  /**
   * Writes the ZIP64 end record, its locator and the end record (its directory offset 0xFFFFFFFF)
   * of a two-entry directory.
   */
  @SuppressWarnings("ByteBufferBackingArray") // every buffer is le(n): allocated, offset 0
  private static void endRecords(ByteArrayOutputStream out, long directoryAt, long directorySize) {
    long zip64EndAt = out.size();
    ByteBuffer z = le(56);
    z.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45);
    z.putInt(0).putInt(0).putLong(2).putLong(2).putLong(directorySize).putLong(directoryAt);
    out.writeBytes(z.array());
    ByteBuffer locator = le(20);
    locator.putInt(0x07064b50).putInt(0).putLong(zip64EndAt).putInt(1);
    out.writeBytes(locator.array());
    ByteBuffer end = le(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0);
    end.putShort((short) 2).putShort((short) 2).putInt((int) directorySize).putInt(-1);
    end.putShort((short) 0);
    out.writeBytes(end.array());
  }

  /** Every entry's time: a fixed one, so that the same arguments make the same bytes. */
  private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2024, 1, 1, 0, 0);

  /** See {@link TestModules#javaZip}. */
  static byte[] javaZip(byte[] moduleFb, boolean deflate, String... otherNamesFirst) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
        for (String other : otherNamesFirst) {
          putStored(zip, other, other.getBytes(StandardCharsets.UTF_8));
        }
        if (moduleFb != null) {
          if (deflate) {
            ZipEntry e = new ZipEntry("module.fb");
            e.setTimeLocal(ENTRY_TIME);
            e.setMethod(ZipEntry.DEFLATED);
            zip.putNextEntry(e);
            zip.write(moduleFb);
            zip.closeEntry();
          } else {
            putStored(zip, "module.fb", moduleFb);
          }
        }
        putStored(zip, "kernel.so", new byte[] {1, 2, 3});
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void putStored(ZipOutputStream zip, String name, byte[] data) throws IOException {
    ZipEntry e = new ZipEntry(name);
    e.setTimeLocal(ENTRY_TIME);
    e.setMethod(ZipEntry.STORED);
    e.setSize(data.length);
    e.setCompressedSize(data.length);
    CRC32 crc = new CRC32();
    crc.update(data);
    e.setCrc(crc.getValue());
    zip.putNextEntry(e);
    zip.write(data);
    zip.closeEntry();
  }

  private static ByteBuffer le(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static long roundUp(long v, int to) {
    return (v + to - 1) / to * to;
  }

  private static int roundUp(int v, int to) {
    return (v + to - 1) / to * to;
  }
}
