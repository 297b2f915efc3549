package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.V0RawSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typed stubs for the V0 structured (SIP) ABI: records and lists bound to the SIP tree, flattened
 * into the raw argument list by leaf index, results rebuilt from the raw results.
 */
class SipStubTest {

  /** Raw: mask ui8[?x4], pixels f32[2x?], scale f32 -> out f32[2x?], sum f32. */
  static final String RAW = "I26!B8!t8d-1d4B8!t0d2d-1S3!t0R16!B8!t0d2d-1S3!t0";

  /**
   * Inputs: a dict of keyword arguments {images: [ {mask: 0, pixels: 1} ], scale: 2}; results: a
   * sequence [ {out: 0, sum: 1} ].
   */
  static final String SIP =
      "I54!D50!K7!imagesS27!k0D21!K5!mask_0K7!pixels_1K6!scale_2R27!S23!k0D17!K4!out_0K4!sum_1";

  static final String[] INTERFACE = {
    "@IreeModule",
    "public interface Masked {",
    "  record Image(FloatArray pixels, UByteArray mask) {}",
    "  record Output(float sum, FloatArray out) {}",
    "  @IreeFunction(value = \"f\", abi = \"" + RAW + "\", sip = \"" + SIP + "\")",
    "  Output apply(List<Image> images, float scale);",
    "}"
  };

  @TempDir Path dir;

  @Test
  void theStubFlattensByLeafIndexAndRebuildsTheResult() throws Exception {
    ProcessorTester t = new ProcessorTester(dir);
    Compilation c = t.compileClean(source("Masked", INTERFACE));
    JavaFileObject stub =
        c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test", "Iree_Masked.java").orElseThrow();
    String text = stub.getCharContent(false).toString();
    ProcessorTester.assertGolden(text, "Iree_Masked.java");

    AtomicReference<VmList> received = new AtomicReference<>();
    HostModule module =
        HostModule.builder("module")
            .function(
                "f",
                V0RawSignature.parse(RAW),
                args -> {
                  received.set(args);
                  FloatArray pixels = FloatArray.fromBufferView(args.getBufferView(1));
                  float scale = args.getValue(2).asF32();
                  FloatArray out = FloatArray.zeros(pixels.shape());
                  float sum = 0;
                  for (int i = 0; i < pixels.size(); i++) {
                    out.setFlat(pixels.getFlat(i) * scale, i);
                    sum += out.getFlat(i);
                  }
                  return VmList.of(out.asBufferView(), VmValue.f32(sum));
                })
            .build();
    CompiledClasses classes = new CompiledClasses(c);
    Object masked =
        classes.load("test.Iree_Masked").getConstructor(ModuleBackend.class).newInstance(module);
    Class<?> imageClass = classes.load("test.Masked$Image");
    FloatArray pixels = FloatArray.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
    UByteArray mask = UByteArray.zeros(1, 4);
    Object image = imageClass.getConstructors()[0].newInstance(pixels, mask);
    Method apply = classes.load("test.Masked").getMethod("apply", List.class, float.class);
    Object output = apply.invoke(masked, List.of(image), 2f);

    // The raw slots: mask (leaf 0), pixels (leaf 1), scale (leaf 2), whatever the Java order.
    assertThat(UByteArray.fromBufferView(received.get().getBufferView(0))).isEqualTo(mask);
    assertThat(FloatArray.fromBufferView(received.get().getBufferView(1))).isEqualTo(pixels);
    assertThat(received.get().getValue(2)).isEqualTo(VmValue.f32(2));
    assertThat(output.getClass().getMethod("sum").invoke(output)).isEqualTo(42f);

    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> apply.invoke(masked, List.of(), 2f));
    assertThat(((IreeValueException) e.getCause()).side())
        .isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(e.getCause()).hasMessageThat().isEqualTo("f: images: expected 1 element but got 0");
  }

  @Test
  void mapsFlattenByLeafIndexToo() throws Exception {
    ProcessorTester t = new ProcessorTester(dir);
    Compilation c =
        t.compileClean(
            source(
                "MaskedMaps",
                "@IreeModule",
                "public interface MaskedMaps {",
                "  record Output(float sum, FloatArray out) {}",
                "  @IreeFunction(value = \"f\", abi = \"" + RAW + "\", sip = \"" + SIP + "\")",
                "  Output apply(List<java.util.Map<String, NdArray>> images, float scale);",
                "}"));
    AtomicReference<VmList> received = new AtomicReference<>();
    HostModule module =
        HostModule.builder("module")
            .function(
                "f",
                V0RawSignature.parse(RAW),
                args -> {
                  received.set(args);
                  FloatArray pixels = FloatArray.fromBufferView(args.getBufferView(1));
                  return VmList.of(pixels.asBufferView(), VmValue.f32(7));
                })
            .build();
    CompiledClasses classes = new CompiledClasses(c);
    Object stub =
        classes
            .load("test.Iree_MaskedMaps")
            .getConstructor(ModuleBackend.class)
            .newInstance(module);
    Method apply = classes.load("test.MaskedMaps").getMethod("apply", List.class, float.class);
    FloatArray pixels = FloatArray.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
    UByteArray mask = UByteArray.zeros(1, 4);
    Object output =
        apply.invoke(stub, List.of(java.util.Map.of("pixels", pixels, "mask", mask)), 2f);
    assertThat(UByteArray.fromBufferView(received.get().getBufferView(0))).isEqualTo(mask);
    assertThat(FloatArray.fromBufferView(received.get().getBufferView(1))).isEqualTo(pixels);
    assertThat(output.getClass().getMethod("sum").invoke(output)).isEqualTo(7f);

    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () -> apply.invoke(stub, List.of(java.util.Map.of("mask", mask)), 2f));
    assertThat(((IreeValueException) e.getCause()).side())
        .isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(e.getCause())
        .hasMessageThat()
        .isEqualTo("f: images[*]: missing key 'pixels'; expected keys [mask, pixels]");
  }

  @Test
  void mismatchesAgainstTheStructureAreCompileErrors() throws IOException {
    ProcessorTester t = new ProcessorTester(dir);
    JavaFileObject s =
        source(
            "BadSip",
            "@IreeModule",
            "interface BadSip {",
            "  record Image(FloatArray pixels, UByteArray maks) {}",
            "  record Output(float sum, FloatArray out) {}",
            "  @IreeFunction(value = \"f\", abi = \"" + RAW + "\", sip = \"" + SIP + "\")",
            "  Output apply(List<Image> images, float scale);",
            "  @IreeFunction(value = \"g\", abi = \"{\\\"a\\\":[],\\\"r\\\":[]}\", sip = \"I1!R1!\")",
            "  void g();",
            "  @IreeFunction(value = \"h\", abi = \"I6!S3!t0R1!\", sip = \"I12!S9!k0_0k1_1R1!\")",
            "  void h(float x, float y);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c).hadErrorContaining("did you mean \"mask\"?").inFile(s).onLineContaining("maks");
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadReflection] g: @IreeFunction(sip) of method g structures a V0 raw signature,"
                + " but the function is described by its iree.abi JSON")
        .inFile(s)
        .onLineContaining("\"g\"");
    assertThat(c)
        .hadErrorContaining("[IreeBadReflection] h: @IreeFunction(sip) of method h does not fit:")
        .inFile(s)
        .onLineContaining("\"h\"");
    assertThat(c).hadErrorCount(3);
  }
}
