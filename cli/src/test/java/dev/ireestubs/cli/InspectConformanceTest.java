package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.MlirTypes;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.derive.*;
import dev.ireestubs.derive.InterfaceSuggestion.Method;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.VmfbAttributes;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code inspect} on every real module in {@code ../shared/iree-reflection/vmfb/} (committed to
 * public repositories between 2021 and 2026): it succeeds, lists every export with its calling
 * convention and every reflection attribute, and prints an interface that compiles; with each
 * method's reflection given inline, the iree-stubs processor binds every method of it. The Git LFS
 * pointer fails with status 1 and the reader's message.
 */
class InspectConformanceTest {

  private static final String HEADER = "Java interface (checked against this module by ";

  @Test
  void inspectSaysWhichRuntimeGenerationAModuleNeeds() throws Exception {
    String[][] cases = {
      {"vmfb/2026-08_djl-iree-engine_add_bc17.vmfb", "IREE ≤ 3.11 (hal 0.6)"},
      {"hal07/2026-08_djl-iree-engine_add_hal07.vmfb", "IREE 3.12+ (hal 0.7)"},
      {
        "hal07/2026-03_elodin_identity_i64_x86_64_hal07.vmfb",
        "any IREE runtime (no generation-specific HAL imports)"
      }
    };
    for (String[] c : cases) {
      CliRun run = CliRun.of("inspect", SharedData.require(c[0]).toString());
      int status = run.status();
      String stdout = run.out();
      assertWithMessage(c[0]).that(status).isEqualTo(0);
      assertWithMessage(c[0]).that(stdout).contains("\nruntime generation: " + c[1] + "\n");
      if (!c[1].startsWith("any")) {
        assertWithMessage(c[0])
            .that(stdout)
            .contains(
                " * <p>Compiled for "
                    + c[1].replace("≤", "&#8804;") // Javadoc text escapes what is not ASCII
                    + ": an IREE runtime of the other generation");
      }
    }
  }

  @Test
  void modulesWithParameterArchivesSayWhichScopes() throws Exception {
    String[][] cases = {
      {"vmfb/2026-08_djl-iree-engine_scale_bc17.vmfb", "scopes: 'model'\n"},
      {"params/2026-08_djl-iree-engine_scale2_bc17.vmfb", "scopes: 'bias', 'model'\n"},
      {"vmfb/2026-08_djl-iree-engine_add_bc17.vmfb", null}
    };
    for (String[] c : cases) {
      CliRun run = CliRun.of("inspect", SharedData.require(c[0]).toString());
      int status = run.status();
      String stdout = run.out();
      assertThat(status).isEqualTo(0);
      if (c[1] == null) {
        assertThat(stdout).doesNotContain("parameters:");
      } else {
        assertThat(stdout)
            .contains(
                "parameters: needs external parameter archives (imports io_parameters); " + c[1]);
      }
    }
  }

  @Test
  void inspectsTheRealModelFromItsBytecode() throws Exception {
    Path file =
        SharedData.require(
            "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb");
    CliRun run = CliRun.of("inspect", file.toString());
    int status = run.status();
    String stdout = run.out();
    String err = run.err();
    assertWithMessage("stderr: %s", err).that(status).isEqualTo(0);
    assertThat(stdout)
        .contains(
            "  tf2onnx$async  0rrr_r  (from bytecode)\n"
                + "    async (tensor<1x49x40x1xi8>) -> (tensor<1x4xf32>)\n");
    assertThat(stdout)
        .contains(
            "  tf2onnx  0r_r  (from bytecode)\n    (tensor<1x49x40x1xi8>) -> (tensor<1x4xf32>)\n");
    assertThat(stdout).contains("FloatArray tf2onnx(ByteArray input0);");
  }

  @Test
  void inspectsEveryRealModule() throws Exception {
    Path dir = SharedData.require("vmfb");
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".vmfb")).sorted().collect(Collectors.toList());
    }
    assertThat(files).isNotEmpty();
    int modules = 0;
    int exports = 0;
    int methods = 0;
    int omitted = 0;
    int pointers = 0;
    for (Path file : files) {
      String name = file.getFileName().toString();
      CliRun run = CliRun.of("inspect", file.toString());
      int status = run.status();
      String stdout = run.out();
      String stderr = run.err();
      if (name.startsWith("LFS-POINTER")) {
        assertWithMessage("%s: status", name).that(status).isEqualTo(1);
        assertWithMessage("%s: stdout", name).that(stdout).isEmpty();
        assertWithMessage("%s: stderr", name).that(stderr).contains("Git LFS pointer");
        pointers++;
        continue;
      }
      assertWithMessage("%s: status; stderr: %s", name, stderr).that(status).isEqualTo(0);
      assertWithMessage("%s: stderr", name).that(stderr).isEmpty();
      modules++;

      VmfbModule module = VmfbReader.read(file);
      assertWithMessage("%s", name).that(stdout).startsWith("module: " + module.name() + " (");
      String listing = stdout.substring(0, stdout.indexOf(HEADER));
      for (VmfbExport e : module.exports()) {
        exports++;
        assertWithMessage("%s: export line of %s", name, e.name())
            .that(listing)
            .contains(
                "\n  " + e.name() + "  " + e.callingConvention().orElse("(no calling convention)"));
        for (VmfbAttributes.Entry a : e.reflection().entries()) {
          assertWithMessage("%s: reflection of %s", name, e.name())
              .that(listing)
              .contains("\n    " + a.key() + " = " + Inspector.oneLine(a.value()) + "\n");
        }
      }

      // The interface as printed compiles (the vmfb form; no processor, which reads no .vmfb yet).
      String java = stdout.substring(stdout.indexOf("\n\n", stdout.indexOf(HEADER)) + 2);
      InterfaceSuggestion suggestion = new Inspector(module, name).suggestion();
      assertWithMessage("%s: printed interface", name)
          .that(java)
          .isEqualTo(InterfaceWriter.write(suggestion, ""));
      Javac.assertCompiles(suggestion.interfaceName(), java, false);

      // Every export is a method or left out with a reason.
      methods += suggestion.methods().size();
      omitted += suggestion.omitted().size();
      assertWithMessage("%s: methods + omitted", name)
          .that(suggestion.methods().size() + suggestion.omitted().size())
          .isEqualTo(module.exports().size());

      // With each method's reflection inline, the processor binds the interface.
      if (!suggestion.methods().isEmpty()) {
        Map<String, String> inline = new LinkedHashMap<>();
        for (Method m : suggestion.methods()) {
          VmfbExport e = module.export(m.function()).orElseThrow();
          Reflection.Resolved r = e.signature();
          inline.put(m.function(), inlineReflection(e, r));
        }
        Javac.assertCompiles(
            suggestion.interfaceName(), InterfaceWriter.writeInline(suggestion, inline), true);
      }
    }
    assertThat(pointers).isEqualTo(1);
    System.out.printf(
        "inspect conformance: %d real modules inspected, %d exports listed, %d methods suggested"
            + " (%d exports left out); every interface compiles and every method binds under the"
            + " processor; %d LFS pointer rejected%n",
        modules, exports, methods, omitted, pointers);
  }

  /**
   * The reflection the processor can take inline for the same signature: the declaration itself,
   * else the signature as {@code iree.abi} JSON (refs of a calling convention print as {@code
   * "unknown"}, which binds the same Java type).
   */
  private static String inlineReflection(VmfbExport e, Reflection.Resolved r) {
    if (r.source().equals(Reflection.DECLARATION) || r.source().equals(Reflection.IREE_ABI)) {
      return e.reflection().get(r.source()).orElseThrow();
    }
    FunctionSignature s = r.signature();
    if (s.model() == FunctionSignature.CallingModel.COARSE_FENCES) {
      // JSON cannot state the coarse-fences model: an async declaration of the same types does.
      return new Declaration(
              true, e.name(), parameters("input", s.arguments()), parameters("output", s.results()))
          .print();
    }
    return AbiJson.print(s);
  }

  private static List<Declaration.Parameter> parameters(String prefix, List<AbiType> types) {
    List<Declaration.Parameter> out = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      AbiType t = types.get(i);
      // A calling convention's refs have no MLIR spelling: an opaque ref binds the same VmRef.
      out.add(
          t.equals(AbiType.Ref.any())
              ? new Declaration.Parameter(
                  prefix + i, MlirTypes.parse("!util.object"), "!util.object", "")
              : Declaration.Parameter.of(prefix + i, t));
    }
    return out;
  }
}
