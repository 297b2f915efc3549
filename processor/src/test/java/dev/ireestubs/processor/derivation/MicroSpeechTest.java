package dev.ireestubs.processor.derivation;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.testing.SharedData;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The real keyword-spotting model of {@code ../shared/iree-reflection/models/} (an ONNX import
 * compiled by IREE 3.11.0): it carries no reflection, so its types come from its bytecode. The
 * derived client is typed and checked; a wrong interface is an error at compile time naming the
 * element type the bytecode asserts.
 */
class MicroSpeechTest {

  static final String MODULE = "2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";

  private static ProcessorTester tester() {
    Path models = SharedData.require("models");
    SharedData.require("models/" + MODULE);
    return new ProcessorTester(models);
  }

  @Test
  void theDerivedClientIsTypedFromTheBytecode() {
    ProcessorTester t = tester();
    Compilation c =
        t.compileClean(
            DeriveModeTest.packageInfo(
                "kws", "@IreeClient(vmfb = \"" + MODULE + "\", name = \"Kws\")"));
    String client = text(c, "kws.Kws");
    // The module asserts 0x10000008 (signless 8-bit integer) of its input and creates a 1x4 f32
    // result; its $async twin is left out, as IREE's tools do.
    assertThat(client).contains("FloatArray tf2onnx(ByteArray input0);");
    assertThat(client)
        .contains(
            "Checked against {@code (tensor<1x49x40x1xi8>) -> (tensor<1x4xf32>) (from bytecode)}");
    assertThat(client).doesNotContain("VmRef");
    assertThat(t.models).hasSize(1);
    CallPlan f = t.models.get(0).functions().get(0);
    assertThat(f.reflectionSource()).isEqualTo(MODULE + " (bytecode)");
    assertThat(f.signature().format()).isEqualTo(ReflectionFormat.BYTECODE);
    // The stub's signature constant says where it came from.
    assertThat(text(c, "kws.Iree_Kws")).contains("ReflectionFormat.BYTECODE");
  }

  @Test
  void theDerivedStubBindsToAFakeOfTheModuleAndChecksShapesBeforeTheCall() throws Exception {
    ProcessorTester t = tester();
    Compilation c =
        t.compileClean(
            DeriveModeTest.packageInfo(
                "kws", "@IreeClient(vmfb = \"" + MODULE + "\", name = \"Kws\")"));
    // The fake's functions take their signatures from the module's bytecode too.
    HostModule fake =
        HostModule.fake(
            t.reflectionDir.resolve(MODULE),
            Map.of(
                "tf2onnx",
                args -> FloatArray.of(new float[] {1, 2, 3, 4}, 1, 4),
                "tf2onnx$async",
                args ->
                    java.util.concurrent.CompletableFuture.completedFuture(
                        FloatArray.of(new float[] {5, 6, 7, 8}, 1, 4))));
    CompiledClasses classes = new CompiledClasses(c);
    Class<?> iface = classes.load("kws.Kws");
    Object kws = classes.load("kws.Iree_Kws").getConstructor(ModuleBackend.class).newInstance(fake);
    Method tf2onnx = iface.getMethod("tf2onnx", ByteArray.class);
    FloatArray out = (FloatArray) tf2onnx.invoke(kws, ByteArray.zeros(1, 49, 40, 1));
    assertThat(out.toArray()).isEqualTo(new float[] {1, 2, 3, 4});
    // Its asynchronous twin, typed from the same bytecode.
    Method tf2onnxAsync = iface.getMethod("tf2onnxAsync", ByteArray.class);
    Object later = tf2onnxAsync.invoke(kws, ByteArray.zeros(1, 49, 40, 1));
    FloatArray outLater = (FloatArray) ((java.util.concurrent.CompletableFuture<?>) later).get();
    assertThat(outLater.toArray()).isEqualTo(new float[] {5, 6, 7, 8});
    InvocationTargetException wrong =
        assertThrows(
            InvocationTargetException.class,
            () -> tf2onnx.invoke(kws, ByteArray.zeros(1, 49, 41, 1)));
    assertThat(wrong.getCause()).isInstanceOf(IreeValueException.class);
    assertThat(wrong.getCause().getMessage())
        .isEqualTo(
            "tf2onnx: input0: expected tensor<1x49x40x1xi8> but got tensor<1x49x41x1xi8>"
                + " (dimension 2 is 41, not 40)");
  }

  private static String text(Compilation c, String className) {
    try {
      return c.generatedSourceFile(className).orElseThrow().getCharContent(false).toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anInterfaceTakingUnsignedBytesIsAccepted() {
    // The runtime reads a signless i8 view from unsigned bytes too (ui8 data, as the model's
    // features are).
    tester()
        .compileClean(
            ProcessorTester.source(
                "Kws",
                "@IreeModule(vmfb = \"" + MODULE + "\")",
                "interface Kws {",
                "  FloatArray tf2onnx(UByteArray features);",
                "}"));
  }

  @Test
  void aFloatInputIsASignatureMismatchNamingTheAssertedElementType() {
    JavaFileObject source =
        ProcessorTester.source(
            "Kws",
            "@IreeModule(vmfb = \"" + MODULE + "\")",
            "interface Kws {",
            "  FloatArray tf2onnx(FloatArray x);",
            "}");
    Compilation c = tester().compile(source);
    assertThat(c).failed();
    assertThat(c)
        .hadErrorContaining("[IreeSignatureMismatch]")
        .inFile(source)
        .onLineContaining("FloatArray tf2onnx(FloatArray x)");
    assertThat(c).hadErrorContaining("i8");
  }
}
