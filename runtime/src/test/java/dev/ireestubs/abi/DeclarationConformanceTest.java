package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.abi.FunctionSignature.CallingModel;
import dev.ireestubs.testing.SharedData;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Real reflection from committed {@code .vmfb} files ({@code vmfb-manifest.jsonl}): every {@code
 * iree.abi.declaration} parses, prints back byte-identically and agrees with its export's calling
 * convention; every calling convention parses and prints back. The {@code iree.abi} corpus is
 * checked against the calling conventions its own types imply.
 */
class DeclarationConformanceTest {

  private static final String MANIFEST = "vmfb-manifest.jsonl";
  private static final String DECLARATION_KEY = "iree.abi.declaration";
  private static final String MODEL_KEY = "iree.abi.model";

  /** One function of a manifest row: an export, or an internal function carrying reflection. */
  private record ManifestFunction(
      String where, String name, String callingConvention, Map<String, String> reflection) {}

  private static List<ManifestFunction> functions(List<JsonNode> rows) {
    List<ManifestFunction> out = new ArrayList<>();
    for (JsonNode row : rows) {
      String commit = row.path("commit").asText("");
      String file =
          row.path("repo").asText()
              + ":"
              + row.path("path").asText()
              + (commit.isEmpty() || commit.equals("null")
                  ? ""
                  : "@" + commit.substring(0, Math.min(10, commit.length())));
      for (String table : List.of("exports", "internal_functions_with_reflection")) {
        for (JsonNode f : row.path(table)) {
          Map<String, String> reflection = new LinkedHashMap<>();
          for (Iterator<Map.Entry<String, JsonNode>> it = f.path("reflection").fields();
              it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            reflection.put(e.getKey(), e.getValue().asText());
          }
          String name = f.get("name").asText();
          out.add(
              new ManifestFunction(
                  file + " " + name, name, f.get("calling_convention").asText(), reflection));
        }
      }
    }
    return out;
  }

  /**
   * The distinct declarations of the manifest, in file order, or an empty list when the shared
   * folder is absent (so other tests can use them as extra samples without being skipped).
   */
  static List<String> manifestDeclarationsIfPresent() {
    boolean present =
        SharedData.directory().map(d -> Files.isRegularFile(d.resolve(MANIFEST))).orElse(false);
    if (!present) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (ManifestFunction f : functions(SharedData.jsonLines(MANIFEST))) {
      String decl = f.reflection().get(DECLARATION_KEY);
      if (decl != null) {
        out.add(decl);
      }
    }
    return List.copyOf(out);
  }

  @Test
  void everyDeclarationParsesPrintsBackAndAgreesWithItsCallingConvention() {
    List<ManifestFunction> functions = functions(SharedData.jsonLines(MANIFEST));
    int parsed = 0;
    int printedBack = 0;
    int agree = 0;
    int exactConvention = 0;
    int withUnsupported = 0;
    Set<String> distinct = new LinkedHashSet<>();
    List<String> failures = new ArrayList<>();
    for (ManifestFunction f : functions) {
      String text = f.reflection().get(DECLARATION_KEY);
      if (text == null) {
        continue;
      }
      distinct.add(text);
      Declaration d;
      try {
        d = Declaration.parse(text);
      } catch (AbiParseException e) {
        failures.add(f.where() + ": does not parse: " + e.getMessage());
        continue;
      }
      parsed++;
      if (d.print().equals(text)) {
        printedBack++;
      } else {
        failures.add(f.where() + ": printed back as\n    " + d.print() + "\n  not\n    " + text);
      }
      if (!d.name().equals(f.name())) {
        failures.add(
            f.where() + ": declaration names @" + d.name() + ", the export is " + f.name());
      }
      String model = f.reflection().get(MODEL_KEY);
      if (model != null && d.async() != model.equals("coarse-fences")) {
        failures.add(
            f.where()
                + ": declaration is "
                + (d.async() ? "async" : "sync")
                + " but "
                + MODEL_KEY
                + " is "
                + model);
      }
      FunctionSignature sig = d.toSignature();
      if (sig.arguments().stream().anyMatch(t -> t instanceof AbiType.Unsupported)
          || sig.results().stream().anyMatch(t -> t instanceof AbiType.Unsupported)) {
        withUnsupported++;
      }
      CallingConvention cconv = CallingConvention.parse(f.callingConvention());
      List<String> problems = cconv.mismatches(sig);
      if (problems.isEmpty()) {
        agree++;
      } else {
        failures.add(f.where() + ": disagrees with " + cconv + ": " + problems);
      }
      if (CallingConvention.expectedFor(sig).equals(Optional.of(cconv))) {
        exactConvention++;
      }
    }
    assertWithMessage("declarations that did not conform").that(failures).isEmpty();
    // The manifest as collected: a changed count means the data changed, not the parser.
    assertWithMessage("declarations in the manifest").that(parsed).isEqualTo(43);
    // Every real declaration is typed: each slot has a VM kind, so the convention is implied.
    assertThat(exactConvention).isEqualTo(parsed);
    assertThat(withUnsupported).isEqualTo(0);
    System.out.printf(
        "iree.abi.declaration conformance: %d declarations (%d distinct) parsed, %d printed back"
            + " identically, %d agree with their calling convention (%d imply it exactly)%n",
        parsed, distinct.size(), printedBack, agree, exactConvention);
  }

  @Test
  void everyCallingConventionParsesAndOtherReflectionAgrees() {
    List<ManifestFunction> functions = functions(SharedData.jsonLines(MANIFEST));
    Set<String> distinct = new LinkedHashSet<>();
    int fencedChecked = 0;
    int v0Checked = 0;
    List<String> failures = new ArrayList<>();
    for (ManifestFunction f : functions) {
      String text = f.callingConvention();
      distinct.add(text);
      CallingConvention cconv;
      try {
        cconv = CallingConvention.parse(text);
      } catch (AbiParseException e) {
        failures.add(f.where() + ": calling convention does not parse: " + e.getMessage());
        continue;
      }
      if (!cconv.toString().equals(text)) {
        failures.add(f.where() + ": " + text + " printed back as " + cconv);
      }
      if (cconv.isVariadic()) {
        failures.add(f.where() + ": an export with a variadic convention " + text);
        continue;
      }
      // Coarse fences without a declaration: the convention must end in the two fence refs.
      if ("coarse-fences".equals(f.reflection().get(MODEL_KEY))
          && !f.reflection().containsKey(DECLARATION_KEY)) {
        List<VmKind> kinds = cconv.argumentKinds();
        int n = kinds.size();
        if (n < 2 || kinds.get(n - 2) != VmKind.REF || kinds.get(n - 1) != VmKind.REF) {
          failures.add(f.where() + ": coarse-fences but " + text + " does not end in two refs");
        }
        fencedChecked++;
      }
      // The deprecated V0 raw signature of the same function, checked the same way.
      Optional<V0Reflection> v0 = V0Reflection.from(f.reflection());
      if (v0.isPresent() && v0.get().raw().isPresent()) {
        List<String> problems = cconv.mismatches(v0.get().raw().get());
        if (!problems.isEmpty()) {
          failures.add(f.where() + ": V0 signature disagrees with " + text + ": " + problems);
        }
        v0Checked++;
      }
    }
    assertWithMessage("calling conventions that did not conform").that(failures).isEmpty();
    assertWithMessage("functions in the manifest").that(functions).hasSize(162);
    assertThat(fencedChecked).isEqualTo(8);
    assertThat(v0Checked).isEqualTo(4);
    System.out.printf(
        "calling-convention conformance: %d calling conventions (%d distinct) parsed and printed"
            + " back identically; %d coarse-fences exports end in two fence refs; %d V0 raw"
            + " signatures agree with theirs%n",
        functions.size(), distinct.size(), fencedChecked, v0Checked);
  }

  /**
   * Every {@code iree.abi} object of the corpus, where each of its VM slots has one kind, agrees
   * with the calling convention those kinds make, and disagrees with the same convention once an
   * argument is added or when the function is taken to be coarse-fences.
   */
  @Test
  void reflectionCorpusAgreesWithTheConventionItsTypesImply() {
    List<JsonNode> rows = SharedData.jsonLines("reflection-corpus.jsonl");
    int checked = 0;
    int withoutKinds = 0;
    List<String> failures = new ArrayList<>();
    for (JsonNode row : rows) {
      String where = row.get("source").asText() + " " + row.path("function").asText();
      FunctionSignature sig;
      try {
        sig = AbiJson.parseFunction(SharedData.compact(row.get("abi")));
      } catch (AbiParseException e) {
        continue; // AbiJsonCorpusTest reports these.
      }
      Optional<CallingConvention> implied = CallingConvention.expectedFor(sig);
      if (implied.isEmpty()) {
        withoutKinds++;
        continue;
      }
      CallingConvention c = implied.get();
      try {
        assertWithMessage("%s against %s", where, c).that(c.mismatches(sig)).isEmpty();
        assertThat(CallingConvention.parse(c.toString())).isEqualTo(c);
        assertThat(c.arity()).isEqualTo(sig.vmArgumentCount());
        assertThat(c.results()).hasSize(sig.vmResults().size());
        // The check can fail on real data: one more argument is a mismatch...
        List<VmKind> more = new ArrayList<>(c.argumentKinds());
        more.add(VmKind.I32);
        assertWithMessage("%s with an extra argument", where)
            .that(CallingConvention.of(more, c.results()).mismatches(sig))
            .isNotEmpty();
        // ...and so are coarse fences, unless the convention has the two extra refs.
        FunctionSignature fenced = sig.withModel(CallingModel.COARSE_FENCES);
        assertWithMessage("%s as coarse-fences", where).that(c.mismatches(fenced)).isNotEmpty();
        List<VmKind> withFences = new ArrayList<>(c.argumentKinds());
        withFences.add(VmKind.REF);
        withFences.add(VmKind.REF);
        assertWithMessage("%s as coarse-fences with two fence refs", where)
            .that(CallingConvention.of(withFences, c.results()).mismatches(fenced))
            .isEmpty();
        checked++;
      } catch (AssertionError e) {
        failures.add(where + ": " + e.getMessage());
      }
    }
    assertWithMessage("reflections that disagree with their implied convention")
        .that(failures)
        .isEmpty();
    assertThat(checked).isGreaterThan(0);
    System.out.printf(
        "iree.abi corpus vs calling conventions: %d of %d reflections agree with the convention"
            + " their types imply (and with its coarse-fences form); %d have a slot with no single"
            + " VM kind%n",
        checked, rows.size(), withoutKinds);
  }
}
