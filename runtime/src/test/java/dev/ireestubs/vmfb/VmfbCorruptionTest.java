package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ireestubs.testing.TestModules;
import dev.ireestubs.testing.TestModules.Schema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken input: every case ends in a result or a {@link VmfbFormatException} with a
 * clear message, never another exception, a hang or an allocation sized by a length field.
 */
class VmfbCorruptionTest {

  private static final String SOURCE = "broken.vmfb";

  private static VmfbModule read(byte[] bytes) throws VmfbFormatException {
    return VmfbReader.read(bytes, SOURCE);
  }

  private static String failure(byte[] bytes) {
    VmfbFormatException e = assertThrows(VmfbFormatException.class, () -> read(bytes));
    assertThat(e.sourceName()).isEqualTo(SOURCE);
    assertThat(e).hasMessageThat().startsWith(SOURCE + ": ");
    return e.getMessage();
  }

  // ------------------------------------------------------------------ not a module at all

  @Test
  void emptyInput() {
    assertThat(failure(new byte[0]))
        .isEqualTo(
            SOURCE
                + ": the input is empty (0 bytes); an IREE module (.vmfb) is a ZIP archive"
                + " holding module.fb, or a FlatBuffer with file identifier IREE");
  }

  @Test
  void gitLfsPointer() {
    String pointer =
        "version https://git-lfs.github.com/spec/v1\n"
            + "oid sha256:0da4895b007e5b2aad1c5ab3723124fb68042d8e63ad9fc6466244bc044f9bc6\n"
            + "size 2780411\n";

    String message = failure(pointer.getBytes(StandardCharsets.US_ASCII));

    assertThat(message)
        .isEqualTo(
            SOURCE
                + ": this is a Git LFS pointer file (132 bytes of text), not the module itself"
                + " (the real file: 2780411 bytes,"
                + " sha256:0da4895b007e5b2aad1c5ab3723124fb68042d8e63ad9fc6466244bc044f9bc6);"
                + " fetch it with `git lfs pull` (or install Git LFS before cloning)");
  }

  @Test
  void textFile() {
    String message = failure("hello, this is not a module\n".getBytes(StandardCharsets.UTF_8));

    assertThat(message)
        .isEqualTo(
            SOURCE
                + ": the input is not an IREE module: expected the FlatBuffer file identifier"
                + " IREE (or BMOD before 2021-05) at byte 4, or at byte 8 after a size prefix;"
                + " found \"hello, this is not a module\\n\" (text, not a binary module)");
  }

  @Test
  void jsonText() {
    assertThat(
            failure(
                "{\n  \"name\": \"module\",\n  \"exported_functions\": []\n}"
                    .getBytes(StandardCharsets.UTF_8)))
        .contains("(JSON text: IREE can write a module as FlatBuffer JSON for debugging");
  }

  @Test
  void shorterThanAFlatBufferHeader() {
    byte[] module = TestModules.typical(Schema.S2021).bare();
    for (int n = 1; n < 8; n++) {
      assertThat(failure(Arrays.copyOf(module, n)))
          .contains("the input has " + n + " bytes, too few for an IREE module");
    }
  }

  @Test
  void wrongIdentifier() {
    byte[] bare = TestModules.typical(Schema.S2021).bare();
    System.arraycopy("XXXX".getBytes(StandardCharsets.US_ASCII), 0, bare, 4, 4);
    byte[] prefixed = TestModules.typical(Schema.S2023).sizePrefixed();
    System.arraycopy("FOO!".getBytes(StandardCharsets.US_ASCII), 0, prefixed, 8, 4);
    byte[] other = TestModules.spec().identifier("TFL3").bare();

    assertThat(failure(bare))
        .contains(
            "is not an IREE module: expected the FlatBuffer file"
                + " identifier IREE (or BMOD before 2021-05) at byte 4");
    assertThat(failure(bare)).contains("58 58 58 58");
    assertThat(failure(prefixed)).contains("46 4f 4f 21");
    assertThat(failure(other)).contains("54 46 4c 33");
  }

  // ------------------------------------------------------------------ truncation

  @Test
  void everyPrefixOfABareModule_failsOrReadsTheSameModule() throws Exception {
    for (Schema schema : new Schema[] {Schema.S2019, Schema.S2020, Schema.S2021}) {
      byte[] module = TestModules.typical(schema).bare();
      VmfbModule whole = read(module);
      int read = 0;
      for (int n = 0; n < module.length; n++) {
        byte[] prefix = Arrays.copyOf(module, n);
        try {
          VmfbModule m = read(prefix);
          // Only trailing alignment padding can go unnoticed in a FlatBuffer without a size.
          assertWithMessage("%s prefix of %s bytes", schema, n)
              .that(m.exports())
              .isEqualTo(whole.exports());
          assertWithMessage("%s prefix of %s bytes", schema, n)
              .that(module.length - n)
              .isLessThan(4);
          read++;
        } catch (VmfbFormatException expected) {
          assertThat(expected).hasMessageThat().startsWith(SOURCE + ": ");
        }
      }
      assertThat(read).isLessThan(4);
    }
  }

  @Test
  void everyPrefixOfASizePrefixedOrZippedModule_fails() {
    TestModules.Spec spec = TestModules.typical(Schema.S2023);
    Map<String, byte[]> containers = new LinkedHashMap<>();
    containers.put("size-prefixed", spec.sizePrefixed());
    containers.put("IREE zip", spec.ireeZip());
    containers.put("java.util.zip", TestModules.javaZip(spec.sizePrefixed(), false));
    for (Map.Entry<String, byte[]> c : containers.entrySet()) {
      byte[] module = c.getValue();
      for (int n = 0; n < module.length; n++) {
        byte[] prefix = Arrays.copyOf(module, n);
        VmfbFormatException e =
            assertThrows(
                VmfbFormatException.class,
                () -> read(prefix),
                c.getKey() + " prefix of " + n + " bytes");
        assertThat(e.detail()).isNotEmpty();
      }
    }
  }

  @Test
  void truncatedSizePrefixed_namesBothSizes() {
    byte[] module = TestModules.typical(Schema.S2023).sizePrefixed();
    int declared = le(module).getInt(0);

    assertThat(failure(Arrays.copyOf(module, 100)))
        .isEqualTo(
            SOURCE
                + ": the input: the size prefix says the FlatBuffer has "
                + declared
                + " bytes, but only 96 follow it; the file is truncated or corrupt");
  }

  @Test
  void truncatedZip_hasNoEndRecord() {
    byte[] zip = TestModules.typical(Schema.S2023).ireeZip();

    assertThat(failure(Arrays.copyOf(zip, zip.length / 2)))
        .contains(
            "the file starts like a ZIP archive but has no end-of-central-directory record"
                + " (PK\\5\\6)");
  }

  // ------------------------------------------------------------------ random damage

  @Test
  void randomByteFlips_giveAResultOrAFormatException() {
    Map<String, byte[]> modules = new LinkedHashMap<>();
    modules.put("2019 bare", TestModules.typical(Schema.S2019).bare());
    modules.put("2020 bare", TestModules.typical(Schema.S2020).bare());
    modules.put("2021 bare", TestModules.typical(Schema.S2021).bare());
    modules.put("2022-05 prefixed", TestModules.typical(Schema.S2022_05).sizePrefixed());
    modules.put("2022-08 prefixed", TestModules.typical(Schema.S2022_08).sizePrefixed());
    modules.put("2023 prefixed", TestModules.typical(Schema.S2023).sizePrefixed());
    modules.put("2023 IREE zip", TestModules.typical(Schema.S2023).ireeZip());
    int[] outcomes = new int[2];
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          Random random = new Random(20260821L);
          for (Map.Entry<String, byte[]> entry : modules.entrySet()) {
            for (int iteration = 0; iteration < 3000; iteration++) {
              byte[] damaged = entry.getValue().clone();
              int flips = 1 + random.nextInt(4);
              for (int f = 0; f < flips; f++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
              }
              try {
                read(damaged);
                outcomes[0]++;
              } catch (VmfbFormatException expected) {
                outcomes[1]++;
              } catch (RuntimeException | Error e) {
                throw new AssertionError(entry.getKey() + ", iteration " + iteration + ": " + e, e);
              }
            }
          }
        });
    // Both outcomes happen: damage to unread bytes is harmless, damage to structure is caught.
    assertThat(outcomes[0]).isGreaterThan(100);
    assertThat(outcomes[1]).isGreaterThan(100);
  }

  // ------------------------------------------------------------------ targeted FlatBuffer damage

  /** Positions inside a size-prefixed 2023 module (FlatBuffer at byte 4). */
  private static final class Layout {
    final byte[] bytes;
    final int root;
    final int vtable;

    Layout(byte[] bytes) {
      this.bytes = bytes;
      this.root = 4 + le(bytes).getInt(4);
      this.vtable = root - le(bytes).getInt(root);
    }

    int fieldSlot(int id) {
      return vtable + 4 + 2 * id;
    }

    int field(int id) {
      return root + (le(bytes).getShort(fieldSlot(id)) & 0xFFFF);
    }

    int deref(int pos) {
      return pos + le(bytes).getInt(pos);
    }

    void putInt(int pos, int value) {
      le(bytes).putInt(pos, value);
    }

    void putShort(int pos, int value) {
      le(bytes).putShort(pos, (short) value);
    }
  }

  private static Layout modern() {
    return new Layout(TestModules.typical(Schema.S2023).sizePrefixed());
  }

  @Test
  void rootOffsetOutOfBounds() {
    Layout l = modern();
    l.putInt(4, 0x7FFFFFF0);

    assertThat(failure(l.bytes))
        .contains(
            "BytecodeModuleDef: offset 2147483632 points to byte 2147483636,"
                + " outside the FlatBuffer");
  }

  @Test
  void vtableOffsetOutOfBounds() {
    Layout l = modern();
    l.putInt(l.root, -0x10000000);

    assertThat(failure(l.bytes)).contains("the table's vtable offset -268435456 points to byte");
  }

  @Test
  void vtableLengthOddOrTooSmall() {
    for (int length : new int[] {0, 2, 5}) {
      Layout l = modern();
      l.putShort(l.vtable, length);

      assertThat(failure(l.bytes))
          .contains(
              "the vtable length is " + length + "; a vtable is an even number of bytes >= 4");
    }
  }

  @Test
  void fieldOffsetOutsideTheTable() {
    Layout l = modern();
    l.putShort(l.fieldSlot(0), 0xFFF0);

    assertThat(failure(l.bytes))
        .contains(
            "BytecodeModuleDef.name: field 0 at table offset 65520 with 4 bytes"
                + " lies outside the table's");
  }

  @Test
  void hugeStringLength() {
    Layout l = modern();
    int name = l.deref(l.field(0));
    l.putInt(name, -1);

    assertThat(failure(l.bytes))
        .contains(
            "BytecodeModuleDef.name: a string of 4294967295 bytes and its NUL"
                + " terminator run past the end of the FlatBuffer");
  }

  @Test
  void stringWithoutNulTerminator() {
    Layout l = modern();
    int name = l.deref(l.field(0));
    l.bytes[name + 4 + "module".length()] = 'X';

    assertThat(failure(l.bytes)).contains("the string of 6 bytes is not NUL-terminated");
  }

  @Test
  void hugeVectorLengths() {
    for (int count : new int[] {0x7FFFFFFF, -1, 100_000}) {
      Layout l = modern();
      int exports = l.deref(l.field(7));
      l.putInt(exports, count);

      assertThat(failure(l.bytes))
          .contains(
              "BytecodeModuleDef.exported_functions: a vector of "
                  + Integer.toUnsignedLong(count)
                  + " elements of 4 bytes runs past the end of the FlatBuffer");
    }
  }

  @Test
  void selfReferencingOffset() {
    Layout l = modern();
    int exports = l.deref(l.field(7));
    l.putInt(exports + 4, 0); // element 0 points at itself

    assertThat(failure(l.bytes))
        .contains("BytecodeModuleDef.exported_functions[0]: the vtable length is 0");
  }

  @Test
  void backwardOffset_wrapsOutOfTheBuffer_soNoCycleCanForm() {
    // Offsets are unsigned and point forward; one aimed back at the root is a huge offset.
    Layout l = modern();
    int exports = l.deref(l.field(7));
    l.putInt(exports + 4, l.root - (exports + 4));

    assertThat(failure(l.bytes))
        .contains(
            "BytecodeModuleDef.exported_functions[0]: offset "
                + Integer.toUnsignedLong(l.root - (exports + 4))
                + " points to byte");
    assertThat(failure(l.bytes)).contains("outside the FlatBuffer");
  }

  @Test
  void sharedOffsets_areReadAsTheFieldThatReachesThem() {
    // function_signatures points at the exports vector: its tables are read as signatures, so
    // an export's internal_ordinal (1) becomes the offset of an attribute vector.
    Layout l = modern();
    int exports = l.deref(l.field(7));
    l.putInt(l.field(8), exports - l.field(8));

    assertThat(failure(l.bytes))
        .contains(
            "BytecodeModuleDef.function_signatures[1].attrs: a vector of 262144 elements of 4"
                + " bytes runs past the end of the FlatBuffer");
  }

  @Test
  void missingModuleName() {
    Layout l = modern();
    l.putShort(l.fieldSlot(0), 0);

    assertThat(failure(l.bytes))
        .contains("BytecodeModuleDef.name: the module has no name (field 0, required)");
  }

  @Test
  void exportWithoutName() {
    Layout l = modern();
    int export0 = l.deref(l.deref(l.field(7)) + 4);
    int vtable = export0 - le(l.bytes).getInt(export0);
    l.putShort(vtable + 4, 0);

    assertThat(failure(l.bytes)).contains("exported_functions[0]: the export has no local_name");
  }

  @Test
  void internalOrdinalOutOfRange() {
    byte[] modern = TestModules.spec().function("f", "0v_v").export("f", 99, null).sizePrefixed();
    byte[] negative = TestModules.spec().function("f", "0v_v").export("f", -1, null).sizePrefixed();
    TestModules.Spec old = TestModules.typical(Schema.S2020);
    old.replaceExport(0, TestModules.Export.of("simple_mul$async", 9, "0rirrri_r"));

    assertThat(failure(modern))
        .contains("export 'f' has internal_ordinal 99, outside function_signatures (1 entries)");
    assertThat(failure(negative)).contains("has internal_ordinal -1, outside function_signatures");
    assertThat(failure(old.bare()))
        .contains(
            "export 'simple_mul$async' has internal_ordinal 9, outside internal_functions (4"
                + " entries)");
  }

  @Test
  void aliasedTables_costNoMoreThanOnce() throws Exception {
    // 20,000 exports share one table whose signature has 200 attributes: reading shares the
    // strings and the attribute list instead of copying them per export.
    String[] attrs = new String[400];
    for (int i = 0; i < 200; i++) {
      attrs[2 * i] = "key" + i;
      attrs[2 * i + 1] = "value".repeat(20) + i;
    }
    byte[] bytes =
        TestModules.spec()
            .function("f", "0v_v", attrs)
            .export("f", 0, null)
            .exportRepeat(20_000)
            .sizePrefixed();

    VmfbModule m = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> read(bytes));

    assertThat(m.exports()).hasSize(20_000);
    assertThat(m.exports().get(19_999).attributes())
        .isSameInstanceAs(m.exports().get(0).attributes());
    assertThat(m.exports().get(19_999).name()).isSameInstanceAs(m.exports().get(0).name());
    assertThat(m.exports().get(0).attributes().size()).isEqualTo(200);
  }

  // ------------------------------------------------------------------ ZIP damage

  @Test
  void zipWithoutModuleFb() {
    byte[] zip = TestModules.javaZip(null, false, "a.txt", "b.txt");

    assertThat(failure(zip))
        .isEqualTo(
            SOURCE
                + ": the ZIP archive has no module.fb entry (3 entries: a.txt, b.txt, kernel.so);"
                + " an IREE module archive stores the module as module.fb");
  }

  @Test
  void zipWithCompressedModuleFb() {
    byte[] module = TestModules.typical(Schema.S2023).sizePrefixed();

    String expected =
        SOURCE
            + ": ZIP entry module.fb is compressed (method 8, deflate); IREE writes it stored"
            + " (method 0) and this reader reads stored entries only";
    assertThat(failure(TestModules.javaZip(module, true))).isEqualTo(expected);
    assertThat(failure(TestModules.ireeZip(module, true))).isEqualTo(expected);
  }

  @Test
  void zipEntryLongerThanTheFile() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    int entry = centralEntry(zip, "module.fb");
    le(zip).putInt(entry + 20, 0x7FFFFFF0).putInt(entry + 24, 0x7FFFFFF0);

    assertThat(failure(zip))
        .contains("ZIP entry module.fb: 2147483632 bytes at byte 39 run past the end of the input");
  }

  @Test
  void zipEntryShorterThanItsModule() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    int entry = centralEntry(zip, "module.fb");
    le(zip).putInt(entry + 20, 40).putInt(entry + 24, 40);

    assertThat(failure(zip))
        .contains("ZIP entry module.fb: the size prefix says the FlatBuffer has ");
    assertThat(failure(zip)).contains("but only 40 follow it");
  }

  @Test
  void zipDirectoryOutsideTheFile() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    int end = zip.length - 22;
    le(zip).putInt(end + 16, 0x00FFFFFF);

    assertThat(failure(zip)).contains("does not lie before its end record");
  }

  @Test
  void zipDirectoryEntryWithBadSignature() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    int entry = centralEntry(zip, "module.fb");
    zip[entry + 3] = 9;

    assertThat(failure(zip))
        .contains(
            "ZIP central directory entry 0 at byte "
                + entry
                + " does not start with the signature PK\\1\\2");
  }

  @Test
  void zipLocalHeaderMissingOrNamedOtherwise() {
    byte[] module = TestModules.typical(Schema.S2023).sizePrefixed();
    byte[] nowhere = TestModules.javaZip(module, false);
    le(nowhere).putInt(centralEntry(nowhere, "module.fb") + 42, 5);
    byte[] other = TestModules.javaZip(module, false, "first.txt");
    le(other).putInt(centralEntry(other, "module.fb") + 42, 0);

    assertThat(failure(nowhere))
        .contains("puts the local header of module.fb at byte 5, but no local header");
    assertThat(failure(other))
        .contains(
            "the local header at byte 0 names first.txt, but the central directory says"
                + " module.fb");
  }

  @Test
  void zip64MarkerWithoutZip64Field() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    le(zip).putInt(centralEntry(zip, "module.fb") + 42, -1);

    assertThat(failure(zip))
        .contains(
            "ZIP entry module.fb marks its sizes or offset as ZIP64 (0xFFFFFFFF) but has no ZIP64"
                + " extra field");
  }

  @Test
  void zipEncryptedEntry() {
    byte[] zip = TestModules.javaZip(TestModules.typical(Schema.S2023).sizePrefixed(), false);
    zip[centralEntry(zip, "module.fb") + 8] |= 1;

    assertThat(failure(zip)).contains("ZIP entry module.fb is encrypted");
  }

  @Test
  void zipTooShortForItsEndRecord() {
    byte[] zip = {0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0};

    assertThat(failure(zip))
        .contains(
            "a ZIP archive of 10 bytes is too short to hold its end-of-central-directory"
                + " record");
  }

  // ------------------------------------------------------------------ helpers

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The central directory entry of {@code name}. */
  private static int centralEntry(byte[] zip, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + 46 + n.length <= zip.length; i++) {
      if (le(zip).getInt(i) == 0x02014b50
          && Arrays.equals(Arrays.copyOfRange(zip, i + 46, i + 46 + n.length), n)) {
        return i;
      }
    }
    throw new AssertionError("no central directory entry " + name);
  }
}
