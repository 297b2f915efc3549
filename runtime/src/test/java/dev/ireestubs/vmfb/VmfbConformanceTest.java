package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every real module in {@code ../shared/iree-reflection/vmfb/} (committed to public repositories
 * between 2021 and 2026) reads as {@code vmfb-manifest.jsonl} records it: module name, bytecode
 * version, identifier, container, schema era, exports with calling conventions and reflection
 * attributes, and the reflection of internal functions; the Git LFS pointer is rejected.
 */
class VmfbConformanceTest {

  /** The manifest's era labels and the layouts they cover. */
  private static final Map<String, Set<VmfbSchemaEra>> ERAS =
      Map.of(
          "A0_<=2021-09 (internal_functions)",
          Set.of(
              VmfbSchemaEra.SIGNATURES_WITHOUT_CALLING_CONVENTION_2019,
              VmfbSchemaEra.INTERNAL_FUNCTIONS_2020),
          "A1_2021-09..2022-05 (no version)",
          Set.of(VmfbSchemaEra.NO_INTERNAL_FUNCTIONS_2021),
          "C_2022-08 (version+deps, sig in export)",
          Set.of(VmfbSchemaEra.DEPENDENCIES_2022),
          "D_2023+ (function_signatures table)",
          Set.of(VmfbSchemaEra.FUNCTION_SIGNATURES_2023));

  /**
   * Manifest rows known to be wrong, each checked against the file itself: the 821-byte elodin
   * identity module has one export and no {@code __init} (the bytes hold no such string), while its
   * manifest row lists {@code __init} as its siblings have.
   */
  private static final Map<String, String> EXPORTS_MISSING_FROM_FILE =
      Map.of("2026-03_elodin_identity_i64_x86_64_bc17.vmfb", "__init");

  private static Map<String, List<JsonNode>> rowsByCopy() {
    Map<String, List<JsonNode>> rows = new TreeMap<>();
    for (JsonNode row : SharedData.jsonLines("vmfb-manifest.jsonl")) {
      JsonNode copied = row.get("copied_as");
      if (copied != null && !copied.isNull()) {
        String name = Path.of(copied.asText()).getFileName().toString();
        rows.computeIfAbsent(name, k -> new ArrayList<>()).add(row);
      }
    }
    return rows;
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".vmfb")).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void everyModuleReadsAsTheManifestRecords() throws Exception {
    Path dir = SharedData.require("vmfb");
    Map<String, List<JsonNode>> manifest = rowsByCopy();
    List<Path> files = files(dir);
    assertThat(files).isNotEmpty();

    int modules = 0;
    int pointers = 0;
    int exports = 0;
    int withReflection = 0;
    int throughInternal = 0;
    Map<VmfbContainer, Integer> containers = new TreeMap<>();
    Map<VmfbSchemaEra, Integer> eras = new TreeMap<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      List<JsonNode> rows = manifest.get(name);
      assertWithMessage("manifest rows for %s", name).that(rows).isNotNull();
      for (JsonNode row : rows) {
        assertWithMessage("duplicate rows of %s agree", name)
            .that(withoutProvenance(row))
            .isEqualTo(withoutProvenance(rows.get(0)));
      }
      JsonNode row = rows.get(0);

      if (String.valueOf(text(row, "kind")).startsWith("git-lfs pointer")) {
        VmfbFormatException e =
            assertThrows(VmfbFormatException.class, () -> VmfbReader.read(file), name);
        assertThat(e).hasMessageThat().contains("this is a Git LFS pointer file");
        assertThat(e).hasMessageThat().contains("git lfs pull");
        assertThat(e.sourceName()).isEqualTo(file.toString());
        pointers++;
        continue;
      }

      VmfbModule m = VmfbReader.read(file);
      modules++;
      containers.merge(m.container(), 1, Integer::sum);
      eras.merge(m.schemaEra(), 1, Integer::sum);

      assertWithMessage("%s module name", name).that(m.name()).isEqualTo(text(row, "module_name"));
      assertWithMessage("%s bytecode version", name)
          .that(m.bytecodeVersion().map(BytecodeVersion::toString).orElse(null))
          .isEqualTo(row.path("bytecode_version").isNull() ? null : text(row, "bytecode_version"));
      assertWithMessage("%s file identifier", name)
          .that(m.fileIdentifier())
          .isEqualTo(text(row, "file_identifier"));
      assertWithMessage("%s size prefix", name)
          .that(m.sizePrefixed())
          .isEqualTo(row.get("size_prefixed_flatbuffer").asBoolean());
      String container = text(row, "container");
      assertWithMessage("%s container", name)
          .that(m.container())
          .isEqualTo(container.startsWith("zip") ? VmfbContainer.ZIP : VmfbContainer.BARE);
      if (row.hasNonNull("schema_era")) {
        assertWithMessage("%s schema era", name)
            .that(ERAS.get(text(row, "schema_era")))
            .contains(m.schemaEra());
      }
      assertWithMessage("%s module attributes", name)
          .that(m.attributes().asMap())
          .isEqualTo(pairs(row.get("module_attrs")));

      JsonNode expectedExports = row.get("exports").deepCopy();
      String missing = EXPORTS_MISSING_FROM_FILE.get(name);
      if (missing != null) {
        assertWithMessage("%s: the erratum still holds", name)
            .that(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
            .doesNotContain(missing);
        Iterator<JsonNode> it = expectedExports.elements();
        while (it.hasNext()) {
          if (missing.equals(text(it.next(), "name"))) {
            it.remove();
          }
        }
      }
      assertWithMessage("%s export names", name)
          .that(m.exportNames())
          .isEqualTo(names(expectedExports));
      for (int i = 0; i < expectedExports.size(); i++) {
        JsonNode expected = expectedExports.get(i);
        VmfbExport actual = m.exports().get(i);
        assertWithMessage("%s %s calling convention", name, actual.name())
            .that(actual.callingConvention().orElse(null))
            .isEqualTo(text(expected, "calling_convention"));
        assertWithMessage("%s %s reflection", name, actual.name())
            .that(entries(actual.attributes()))
            .isEqualTo(entries(expected.get("reflection")));
        exports++;
        if (!actual.attributes().isEmpty()) {
          withReflection++;
        }
      }

      // Before 2021-09 the reflection sits on internal functions, reached through the ordinal.
      JsonNode internal = row.get("internal_functions_with_reflection");
      List<VmfbInternalFunction> reflective =
          m.internalFunctions().stream()
              .filter(f -> !f.attributes().isEmpty())
              .collect(Collectors.toList());
      int expectedInternal = internal == null || internal.isNull() ? 0 : internal.size();
      assertWithMessage("%s internal functions with reflection", name)
          .that(reflective)
          .hasSize(expectedInternal);
      for (int i = 0; i < expectedInternal; i++) {
        JsonNode expected = internal.get(i);
        VmfbInternalFunction actual = reflective.get(i);
        assertThat(actual.name().orElse(null)).isEqualTo(text(expected, "name"));
        assertThat(actual.callingConvention().orElse(null))
            .isEqualTo(text(expected, "calling_convention"));
        assertThat(entries(actual.attributes())).isEqualTo(entries(expected.get("reflection")));
        List<VmfbExport> implemented =
            m.exports().stream()
                .filter(e -> e.implementation().filter(actual::equals).isPresent())
                .collect(Collectors.toList());
        assertWithMessage("%s: an export implemented by %s", name, actual.name())
            .that(implemented)
            .isNotEmpty();
        for (VmfbExport e : implemented) {
          assertThat(e.reflection()).isEqualTo(actual.attributes());
          assertThat(e.v0Reflection()).isPresent();
          throughInternal++;
        }
      }
    }
    assertThat(modules).isGreaterThan(0);
    assertThat(pointers).isGreaterThan(0);
    System.out.printf(
        "vmfb conformance: %d modules read (%s; eras %s), %d LFS pointer(s) rejected, %d exports"
            + " checked, %d with reflection attributes, %d reached through internal functions%n",
        modules, containers, eras, pointers, exports, withReflection, throughInternal);
  }

  @Test
  void everyRealModuleSurvivesRandomDamage() throws Exception {
    Path dir = SharedData.require("vmfb");
    Random random = new Random(7);
    int read = 0;
    int rejected = 0;
    for (Path file : files(dir)) {
      byte[] bytes = Files.readAllBytes(file);
      if (bytes.length > 200_000) {
        continue;
      }
      for (int i = 0; i < 150; i++) {
        byte[] damaged = bytes.clone();
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
        try {
          VmfbReader.read(damaged, file.getFileName().toString());
          read++;
        } catch (VmfbFormatException expected) {
          rejected++;
        }
      }
    }
    assertThat(read).isGreaterThan(0);
    assertThat(rejected).isGreaterThan(0);
  }

  // ------------------------------------------------------------------ manifest helpers

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static JsonNode withoutProvenance(JsonNode row) {
    com.fasterxml.jackson.databind.node.ObjectNode copy =
        ((com.fasterxml.jackson.databind.node.ObjectNode) row).deepCopy();
    copy.remove(List.of("repo", "path", "commit", "date", "git_blob", "note"));
    return copy;
  }

  private static List<String> names(JsonNode exports) {
    List<String> names = new ArrayList<>();
    for (JsonNode e : exports) {
      names.add(text(e, "name"));
    }
    return names;
  }

  /** A JSON object's fields in order, as "key=value" strings. */
  private static List<String> entries(JsonNode object) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      out.add(e.getKey() + "=" + e.getValue().asText());
    }
    return out;
  }

  private static List<String> entries(VmfbAttributes attributes) {
    return attributes.entries().stream()
        .map(e -> e.key() + "=" + e.value())
        .collect(Collectors.toList());
  }

  /** Module attributes as the manifest writes them: null, a list of [key, value] or an object. */
  private static Map<String, String> pairs(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (node.isObject()) {
      node.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
      return out;
    }
    for (JsonNode pair : node) {
      out.put(pair.get(0).asText(), pair.get(1).asText());
    }
    return out;
  }
}
