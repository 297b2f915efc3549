package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.V0Reflection;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.testing.TestModules.Schema;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Modules of every schema revision and container, built with FlatBufferBuilder, read back. */
class VmfbReaderTest {

  private static VmfbModule read(byte[] bytes) throws VmfbFormatException {
    return VmfbReader.read(bytes, "test.vmfb");
  }

  private static List<String> callingConventions(VmfbModule m) {
    return m.exports().stream()
        .map(e -> e.callingConvention().orElse("<none>"))
        .collect(java.util.stream.Collectors.toList());
  }

  // ------------------------------------------------------------------ eras

  @Test
  void bmod2019_signaturesWithoutCallingConvention_reflectionOnTheInternalFunction()
      throws Exception {
    VmfbModule m = read(TestModules.typical(Schema.S2019).bare());

    assertThat(m.fileIdentifier()).isEqualTo("BMOD");
    assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.SIGNATURES_WITHOUT_CALLING_CONVENTION_2019);
    assertThat(m.container()).isEqualTo(VmfbContainer.BARE);
    assertThat(m.bytecodeVersion()).isEqualTo(Optional.empty());
    assertThat(m.exportNames())
        .containsExactly("simple_mul$async", "simple_mul", "__init")
        .inOrder();
    assertThat(callingConventions(m)).containsExactly("<none>", "<none>", "<none>");
    VmfbExport mul = m.export("simple_mul").orElseThrow();
    assertThat(mul.attributes().isEmpty()).isTrue();
    assertThat(mul.implementation().orElseThrow().name()).isEqualTo(Optional.of("simple_mul$sync"));
    assertThat(mul.reflection())
        .isEqualTo(VmfbAttributes.of("f", "I11!B3!d4B3!d4R6!B3!d4", "fv", "1"));
    assertThat(m.internalFunctions()).hasSize(4);
    assertThat(m.internalFunctions().get(2).callingConvention()).isEqualTo(Optional.empty());
  }

  @Test
  void internalFunctions2020_bmodAndIree_reflectionFoundThroughTheInternalOrdinal()
      throws Exception {
    for (String identifier : List.of("BMOD", "IREE")) {
      VmfbModule m = read(TestModules.typical(Schema.S2020).identifier(identifier).bare());

      assertThat(m.fileIdentifier()).isEqualTo(identifier);
      assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.INTERNAL_FUNCTIONS_2020);
      assertThat(callingConventions(m)).containsExactly("0rirrri_r", "0rr_r", "0v_v").inOrder();
      VmfbExport mul = m.exports().get(1);
      assertThat(mul.name()).isEqualTo("simple_mul");
      assertThat(mul.internalOrdinal()).isEqualTo(2);
      assertThat(mul.attributes()).isEqualTo(VmfbAttributes.empty());
      VmfbInternalFunction impl = mul.implementation().orElseThrow();
      assertThat(impl.ordinal()).isEqualTo(2);
      assertThat(impl.name()).isEqualTo(Optional.of("simple_mul$sync"));
      assertThat(impl.callingConvention()).isEqualTo(Optional.of("0rr_r"));
      assertThat(mul.reflection().asMap())
          .containsExactly("f", "I11!B3!d4B3!d4R6!B3!d4", "fv", "1")
          .inOrder();
      V0Reflection v0 = mul.v0Reflection().orElseThrow();
      assertThat(v0.rawVersion()).isEqualTo(Optional.of("1"));
      assertThat(v0.raw().orElseThrow().arguments()).hasSize(2);
      // The async export's implementation has no reflection; neither does the export.
      assertThat(m.exports().get(0).reflection().isEmpty()).isTrue();
      assertThat(m.exports().get(0).v0Reflection()).isEqualTo(Optional.empty());
    }
  }

  @Test
  void noInternalFunctions2021() throws Exception {
    VmfbModule m = read(TestModules.typical(Schema.S2021).bare());

    assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.NO_INTERNAL_FUNCTIONS_2021);
    assertThat(m.bytecodeVersion()).isEqualTo(Optional.empty());
    assertThat(m.internalFunctions()).isEmpty();
    VmfbExport add = m.exports().get(0);
    assertThat(add.name()).isEqualTo("filter_add");
    assertThat(add.callingConvention()).isEqualTo(Optional.of("0rrr_r"));
    assertThat(add.implementation()).isEqualTo(Optional.empty());
    assertThat(add.abiModel()).isEqualTo(Optional.of("coarse-fences"));
  }

  @Test
  void bytecodeVersion2022_longAndShortSignatures() throws Exception {
    for (Schema s : List.of(Schema.S2022_05, Schema.S2022_06_27)) {
      for (boolean prefixed : List.of(false, true)) {
        TestModules.Spec spec = TestModules.typical(s).bytecodeVersion(2, 1);
        VmfbModule m = read(prefixed ? spec.sizePrefixed() : spec.bare());

        assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.BYTECODE_VERSION_2022);
        assertThat(m.bytecodeVersion()).isEqualTo(Optional.of(new BytecodeVersion(2, 1)));
        assertThat(callingConventions(m)).containsExactly("0rrr_r", "0v_v").inOrder();
        assertThat(m.exports().get(0).attributes())
            .isEqualTo(VmfbAttributes.of("iree.abi.model", "coarse-fences"));
      }
    }
  }

  @Test
  void moduleAttributes2022() throws Exception {
    VmfbModule m = read(TestModules.typical(Schema.S2022_06_28).sizePrefixed());

    assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.MODULE_ATTRIBUTES_2022);
    assertThat(m.attributes()).isEqualTo(VmfbAttributes.of("origin", "unit test"));
    assertThat(m.bytecodeVersion()).isEqualTo(Optional.of(new BytecodeVersion(2, 0)));
    assertThat(m.version()).isEqualTo(0);
    assertThat(callingConventions(m)).containsExactly("0rrr_r", "0v_v").inOrder();
  }

  @Test
  void dependencies2022_versionAndSignatureOnTheExport() throws Exception {
    VmfbModule m = read(TestModules.typical(Schema.S2022_08).sizePrefixed());

    assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.DEPENDENCIES_2022);
    assertThat(m.version()).isEqualTo(3);
    assertThat(m.bytecodeVersion().orElseThrow().toString()).isEqualTo("13.0");
    assertThat(m.attributes().asMap()).containsExactly("origin", "unit test");
    assertThat(m.exports().get(0).reflection().get("iree.abi.model"))
        .isEqualTo(Optional.of("coarse-fences"));
  }

  @Test
  void functionSignatures2023_indexedByInternalOrdinal() throws Exception {
    VmfbModule m = read(TestModules.typical(Schema.S2023).sizePrefixed());

    assertThat(m.schemaEra()).isEqualTo(VmfbSchemaEra.FUNCTION_SIGNATURES_2023);
    assertThat(m.fileIdentifier()).isEqualTo("IREE");
    assertThat(m.name()).isEqualTo("module");
    assertThat(m.bytecodeVersion()).isEqualTo(Optional.of(new BytecodeVersion(15, 0)));
    assertThat(m.attributes().entries())
        .containsExactly(new VmfbAttributes.Entry("iree.compiler", "test"));
    assertThat(m.exportNames()).containsExactly("main", "__init").inOrder();
    VmfbExport main = m.exports().get(0);
    // function_signatures[0] belongs to the internal helper: the export reads entry 1.
    assertThat(main.internalOrdinal()).isEqualTo(1);
    assertThat(main.callingConvention()).isEqualTo(Optional.of("0rr_r"));
    assertThat(main.attributes().entries()).hasSize(1);
    assertThat(main.declaration().orElseThrow()).startsWith("sync func @main(%input0:");
    assertThat(main.attributes().containsKey("internal.attr")).isFalse();
    assertThat(m.exports().get(1).callingConvention()).isEqualTo(Optional.of("0v_v"));
    assertThat(m.exports().get(1).reflection().isEmpty()).isTrue();
    assertThat(m.internalFunctions()).isEmpty();
  }

  @Test
  void functionSignatures2023_bytecode17AndModuleVersion() throws Exception {
    VmfbModule m =
        read(TestModules.typical(Schema.S2023).bytecodeVersion(17, 0).version(7).sizePrefixed());

    assertThat(m.bytecodeVersion().orElseThrow().packed()).isEqualTo(0x00110000);
    assertThat(m.version()).isEqualTo(7);
  }

  // ------------------------------------------------------------------ containers

  @Test
  void everyContainerOfOneModuleReadsTheSame() throws Exception {
    TestModules.Spec spec = TestModules.typical(Schema.S2023);
    VmfbModule prefixed = read(spec.sizePrefixed());
    VmfbModule bare = read(spec.bare());
    VmfbModule ireeZip = read(spec.ireeZip());
    VmfbModule javaZip = read(TestModules.javaZip(spec.sizePrefixed(), false, "a_first_entry.bin"));

    assertThat(prefixed.container()).isEqualTo(VmfbContainer.SIZE_PREFIXED);
    assertThat(prefixed.sizePrefixed()).isTrue();
    assertThat(prefixed.flatBufferOffset()).isEqualTo(4);
    assertThat(bare.container()).isEqualTo(VmfbContainer.BARE);
    assertThat(bare.sizePrefixed()).isFalse();
    assertThat(bare.flatBufferOffset()).isEqualTo(0);
    assertThat(ireeZip.container()).isEqualTo(VmfbContainer.ZIP);
    assertThat(ireeZip.sizePrefixed()).isTrue();
    assertThat(ireeZip.flatBufferOffset()).isEqualTo(68);
    assertThat(javaZip.container()).isEqualTo(VmfbContainer.ZIP);
    for (VmfbModule m : List.of(bare, ireeZip, javaZip)) {
      assertThat(m.exports()).isEqualTo(prefixed.exports());
      assertThat(m.attributes()).isEqualTo(prefixed.attributes());
      assertThat(m.schemaEra()).isEqualTo(prefixed.schemaEra());
      assertThat(m.bytecodeVersion()).isEqualTo(prefixed.bytecodeVersion());
    }
  }

  @Test
  void oldLayoutsInNewContainers_stillDetected() throws Exception {
    // Layout detection does not depend on the container's hint about the era.
    for (Schema s : Schema.values()) {
      TestModules.Spec spec = TestModules.typical(s);
      VmfbSchemaEra expected = read(spec.bare()).schemaEra();
      assertThat(read(spec.sizePrefixed()).schemaEra()).isEqualTo(expected);
      assertThat(read(spec.ireeZip()).schemaEra()).isEqualTo(expected);
    }
  }

  @Test
  void byteBufferInput_readsPositionToLimit_andLeavesTheBufferAlone() throws Exception {
    byte[] module = TestModules.typical(Schema.S2023).sizePrefixed();
    ByteBuffer direct = ByteBuffer.allocateDirect(module.length + 20);
    direct.position(7);
    direct.put(module);
    direct.put(new byte[] {9, 9, 9});
    direct.position(7).limit(7 + module.length);

    VmfbModule m = VmfbReader.read(direct, "direct buffer");

    assertThat(m.sourceName()).isEqualTo("direct buffer");
    assertThat(m.exportNames()).containsExactly("main", "__init").inOrder();
    assertThat(direct.position()).isEqualTo(7);
    assertThat(direct.limit()).isEqualTo(7 + module.length);
  }

  @Test
  void pathInput_namesTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("model.vmfb");
    Files.write(file, TestModules.typical(Schema.S2023).ireeZip());
    Path bad = dir.resolve("bad.vmfb");
    Files.writeString(bad, "hello");

    VmfbModule m = VmfbReader.read(file);
    VmfbFormatException e = assertThrows(VmfbFormatException.class, () -> VmfbReader.read(bad));

    assertThat(m.sourceName()).isEqualTo(file.toString());
    assertThat(m.container()).isEqualTo(VmfbContainer.ZIP);
    assertThat(e.sourceName()).isEqualTo(bad.toString());
    assertThat(e).hasMessageThat().startsWith(bad + ": ");
  }

  @Test
  void pathInput_largerThanTheViewCopyThreshold_isMapped(@TempDir Path dir) throws Exception {
    // A module with more than 64 KiB of FlatBuffer goes through FileChannel.map.
    TestModules.Spec spec =
        TestModules.typical(Schema.S2023).moduleAttrs("big", "x".repeat(70_000));
    Path file = dir.resolve("big.vmfb");
    Files.write(file, spec.ireeZip());

    VmfbModule m = VmfbReader.read(file);

    assertThat(m.attributes().get("big").orElseThrow()).hasLength(70_000);
  }

  // ------------------------------------------------------------------ reflection conveniences

  @Test
  void abiJsonSignature_parsesIreeAbi_underTheCoarseFencesModel() throws Exception {
    String json = "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}";
    VmfbModule m =
        read(
            TestModules.spec()
                .function("predict", "0rrr_r", "iree.abi", json, "iree.abi.model", "coarse-fences")
                .function("plain", "0r_r", "iree.abi", json)
                .function("broken", "0r_r", "iree.abi", "{not json")
                .export("predict", 0, null)
                .export("plain", 1, null)
                .export("broken", 2, null)
                .sizePrefixed());

    FunctionSignature predict = m.exports().get(0).abiJsonSignature().orElseThrow();
    FunctionSignature plain = m.exports().get(1).abiJsonSignature().orElseThrow();

    assertThat(m.exports().get(0).abiJson()).isEqualTo(Optional.of(json));
    assertThat(predict.model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(predict.vmArgumentCount()).isEqualTo(3);
    assertThat(plain.model()).isEqualTo(FunctionSignature.CallingModel.SYNC);
    assertThat(plain.arguments()).hasSize(1);
    assertThrows(AbiParseException.class, () -> m.exports().get(2).abiJsonSignature());
  }

  @Test
  void repeatedAttributeKeys_keptInOrder_lookupReturnsTheFirst() throws Exception {
    VmfbModule m =
        read(
            TestModules.spec()
                .function("f", "0v_v", "k", "first", "k", "second", "", "empty key")
                .export("f", 0, null)
                .sizePrefixed());

    VmfbAttributes a = m.exports().get(0).attributes();

    assertThat(a.size()).isEqualTo(3);
    assertThat(a.get("k")).isEqualTo(Optional.of("first"));
    assertThat(a.entries().get(1)).isEqualTo(new VmfbAttributes.Entry("k", "second"));
    assertThat(a.asMap()).containsExactly("k", "first", "", "empty key").inOrder();
    assertThat(a.toString()).isEqualTo("{k=first, k=second, =empty key}");
  }

  @Test
  void moduleWithoutFunctions_readsWithNoExports() throws Exception {
    VmfbModule old = read(TestModules.spec().schema(Schema.S2021).name("empty").bare());
    VmfbModule v13 =
        read(
            TestModules.spec()
                .schema(Schema.S2022_08)
                .bytecodeVersion(13, 0)
                .name("empty13")
                .sizePrefixed());
    VmfbModule v15 = read(TestModules.spec().name("empty15").sizePrefixed());

    assertThat(old.name()).isEqualTo("empty");
    assertThat(old.exports()).isEmpty();
    assertThat(v13.name()).isEqualTo("empty13");
    assertThat(v13.bytecodeVersion()).isEqualTo(Optional.of(new BytecodeVersion(13, 0)));
    assertThat(v15.schemaEra()).isEqualTo(VmfbSchemaEra.FUNCTION_SIGNATURES_2023);
    assertThat(v15.exports()).isEmpty();
  }

  @Test
  void bytecodeVersionContradictingTheLayout_isRejectedWithEveryLayoutsReason() {
    // The 2022-08 layout with bytecode 15.0, which only the 2023 layout has.
    byte[] bytes = TestModules.typical(Schema.S2022_08).bytecodeVersion(15, 0).sizePrefixed();

    VmfbFormatException e = assertThrows(VmfbFormatException.class, () -> read(bytes));

    assertThat(e)
        .hasMessageThat()
        .contains("matches no known layout of IREE's BytecodeModuleDef schema for identifier IREE");
    assertThat(e)
        .hasMessageThat()
        .contains(
            "2022-08+ (version and dependencies, signature on each export): bytecode_version"
                + " (field 11) reads 15.0, this layout has 13.x or earlier");
    assertThat(e)
        .hasMessageThat()
        .contains("2023-02+ (function_signatures table): bytecode_version (field 13) reads 0.0");
  }

  @Test
  void bytecodeVersion_packing() {
    assertThat(BytecodeVersion.fromPacked(0x000F0002)).isEqualTo(new BytecodeVersion(15, 2));
    assertThat(new BytecodeVersion(15, 2).packed()).isEqualTo(0x000F0002);
    assertThat(BytecodeVersion.fromPacked(-1).toString()).isEqualTo("65535.65535");
    assertThat(new BytecodeVersion(13, 0)).isLessThan(new BytecodeVersion(14, 0));
    assertThrows(IllegalArgumentException.class, () -> new BytecodeVersion(-1, 0));
  }
}
