package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.derive.*;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.VmfbAttributes;
import dev.ireestubs.vmfb.VmfbContainer;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbInternalFunction;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbSchemaEra;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The report {@code inspect} prints, on modules built in memory with one export of each kind the
 * reader can return: each is listed with its calling convention, signature and every reflection
 * attribute, and those that cannot be methods are left out of the interface with the reason.
 */
class InspectorTest {

  private static VmfbExport export(String name, String cconv, String... attributes) {
    return new VmfbExport(
        name, 0, Optional.ofNullable(cconv), VmfbAttributes.of(attributes), Optional.empty());
  }

  private static VmfbModule module(List<VmfbExport> exports, VmfbAttributes attributes) {
    return new VmfbModule(
        "model.vmfb",
        VmfbContainer.ZIP,
        true,
        64,
        "IREE",
        VmfbSchemaEra.FUNCTION_SIGNATURES_2023,
        "my_model",
        3,
        Optional.of(new BytecodeVersion(17, 0)),
        attributes,
        exports,
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  @Test
  void reportListsEveryExportAndSuggestsTheInterface() {
    VmfbModule m =
        module(
            List.of(
                export(
                    "predict",
                    "0rr_r",
                    "iree.abi",
                    "{\"a\":[[\"named\",\"image\",[\"ndarray\",\"f32\",1,4]],\"i32\"],"
                        + "\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}"),
                export(
                    "main$async",
                    "0rrr_r",
                    "iree.abi.declaration",
                    "async func @main(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)",
                    "iree.abi.model",
                    "coarse-fences"),
                export("filter", "0rrr_r", "iree.abi.model", "coarse-fences"),
                export("broken", "0r_r", "iree.abi.declaration", "this is not a declaration"),
                export("bad_json", "0r_r", "iree.abi", "{\"a\": [oops"),
                export("ancient", null),
                export("__init", "0v_v")),
            VmfbAttributes.of("iree.reflection.note", "line one\nline two"));
    String report = new Inspector(m, "model.vmfb").report();

    assertThat(report)
        .startsWith(
            "module: my_model (version 3, bytecode 17.0, ZIP archive (module.fb), identifier IREE,"
                + " schema FUNCTION_SIGNATURES_2023 (function_signatures table))\n"
                + "attributes:\n"
                + "  iree.reflection.note = line one\\nline two\n"
                + "runtime generation: any IREE runtime (no generation-specific HAL imports)\n"
                + "exports:\n"
                + "  predict  0rr_r  (from iree.abi)\n"
                + "    (named image: tensor<4xf32>, i32) -> (tensor<4xf32>)\n"
                + "    iree.abi = {\"a\":[[\"named\",\"image\",[\"ndarray\",\"f32\",1,4]],\"i32\"],"
                + "\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}\n"
                + "  main$async  0rrr_r  (from iree.abi.declaration)\n"
                + "    async (tensor<4xf32>) -> (tensor<4xf32>)\n"
                + "    iree.abi.declaration = async func @main(%input0: tensor<4xf32>) -> (%output0:"
                + " tensor<4xf32>)\n"
                + "    iree.abi.model = coarse-fences\n"
                + "  filter  0rrr_r  (from calling convention)\n"
                + "    async (ref) -> (ref)\n"
                + "    iree.abi.model = coarse-fences\n"
                + "  broken  0r_r  (from calling convention)\n"
                + "    (ref) -> (ref)\n"
                + "    iree.abi.declaration = this is not a declaration\n"
                + "    warning: the iree.abi.declaration does not parse (");
    assertThat(report)
        .contains("  bad_json  0r_r\n" + "    no usable signature: iree.abi JSON at ");
    assertThat(report)
        .contains(
            "  ancient  (no calling convention)\n"
                + "    no usable signature: no usable reflection among the attributes [] (iree.abi,"
                + " iree.abi.declaration or f) and no calling convention\n"
                + "  __init  0v_v  (from calling convention)\n"
                + "    () -> ()\n"
                + "\n"
                + "Java interface (checked against this module by @IreeModule(vmfb ="
                + " \"model.vmfb\")):\n"
                + "\n"
                + "import dev.ireestubs.annotations.IreeFunction;\n");

    String java = report.substring(report.indexOf("import "));
    assertThat(java).contains("@IreeModule(vmfb = \"model.vmfb\")\npublic interface MyModel {\n");
    assertThat(java)
        .contains(
            "   * <p>Checked against {@code (named image: tensor<4xf32>, i32) -> (tensor<4xf32>)"
                + " (from iree.abi)}.\n"
                + "   */\n"
                + "  FloatArray predict(FloatArray image, int input1);\n");
    assertThat(java)
        .contains(
            "   * <p>Asynchronous (coarse-fences): returns at once; the future completes when the"
                + " call's signal fence is reached. The backend passes the wait and signal fences;"
                + " add a last parameter Fence wait to run the call after another's (its"
                + " FencedFuture.signal()).\n"
                + "   */\n"
                + "  @IreeFunction(\"main$async\")\n"
                + "  CompletableFuture<FloatArray> mainAsync(FloatArray input0);\n");
    assertThat(java).contains("import java.util.concurrent.CompletableFuture;\n");
    assertThat(java)
        .contains(
            "   * Calls {@code filter} (unchecked):\n"
                + "   *\n"
                + "   * <pre>{@code calling convention 0rrr_r}</pre>\n");
    assertThat(java).contains("  CompletableFuture<VmRef> filter(VmRef input0);\n");
    assertThat(java).contains("   * <p>the iree.abi.declaration does not parse (");
    assertThat(java)
        .contains(
            "  // Not in this interface:\n"
                + "  // bad_json: no usable signature: iree.abi JSON at ");
    assertThat(java)
        .contains(
            "  // ancient: no usable signature: no usable reflection among the attributes []");
    assertThat(java)
        .endsWith(
            "  // __init: names starting with __ are IREE's own (the runtime calls __init itself"
                + " when it loads the module)\n"
                + "}\n");
    Javac.assertCompiles("MyModel", java, false);
  }

  @Test
  void reflectionOfAnInternalFunctionIsShownAsSuch() {
    VmfbInternalFunction impl =
        new VmfbInternalFunction(
            1,
            Optional.of("simple_mul$sync"),
            Optional.of("0rr_r"),
            VmfbAttributes.of("fv", "1", "f", "I11!B3!d4B3!d4R6!B3!d4"));
    VmfbExport e =
        new VmfbExport(
            "simple_mul", 1, Optional.of("0rr_r"), VmfbAttributes.empty(), Optional.of(impl));
    String report = new Inspector(module(List.of(e), VmfbAttributes.empty()), "m.vmfb").report();
    assertThat(report)
        .contains(
            "exports:\n"
                + "  simple_mul  0rr_r  (from f)\n"
                + "    (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>)\n"
                + "    reflection on internal function simple_mul$sync:\n"
                + "    fv = 1\n"
                + "    f = I11!B3!d4B3!d4R6!B3!d4\n"
                + "    as iree.abi JSON: {\"a\":[[\"ndarray\",\"f32\",1,4],[\"ndarray\",\"f32\",1,4]],"
                + "\"r\":[[\"ndarray\",\"f32\",1,4]]}\n");
    assertThat(report)
        .contains(
            "  @IreeFunction(\"simple_mul\")\n"
                + "  FloatArray simpleMul(FloatArray input0, FloatArray input1);\n");
  }

  @Test
  void moduleWithoutExportsSaysSo() {
    VmfbModule m =
        new VmfbModule(
            "old.vmfb",
            VmfbContainer.BARE,
            false,
            0,
            "BMOD",
            VmfbSchemaEra.SIGNATURES_WITHOUT_CALLING_CONVENTION_2019,
            "module",
            0,
            Optional.empty(),
            VmfbAttributes.empty(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of());
    String report = new Inspector(m, "old.vmfb").report();
    assertThat(report)
        .startsWith(
            "module: module (version 0, bytecode not recorded, bare FlatBuffer, identifier BMOD,"
                + " schema SIGNATURES_WITHOUT_CALLING_CONVENTION_2019 (internal_functions,"
                + " signatures without calling convention))\n"
                + "runtime generation: any IREE runtime (no generation-specific HAL imports)\n"
                + "exports: none\n");
    assertThat(report).endsWith("public interface Module {\n}\n");
  }
}
