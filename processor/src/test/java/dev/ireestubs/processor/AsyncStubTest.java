package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.FunctionSignature.CallingModel;
import dev.ireestubs.host.DynamicHostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.Fence;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Asynchronous methods: a {@code CompletableFuture} (or {@code FencedFuture}) method binds to the
 * {@code $async} export of its function, checked against it at compile time; the generated code (a
 * golden file); calls through a fake of the module, in order behind their wait fences; and a
 * negative test per diagnostic.
 */
class AsyncStubTest {

  static final String PREDICT =
      "sync func @predict(%input0: tensor<1x4xf32>) -> (%output0: tensor<1x2xf32>)";
  static final String PREDICT_ASYNC =
      "async func @predict$async(%input0: tensor<1x4xf32>) -> (%output0: tensor<1x2xf32>)";
  static final String PAIR_ASYNC =
      "async func @pair$async(%input0: tensor<4xf32>) -> (%sum: tensor<4xf32>, %count: i32)";

  /**
   * A module like today's torch and ONNX imports: {@code predict} and its twin with declarations,
   * {@code classify} and {@code classify$async} with calling conventions only (as micro_speech), an
   * asynchronous function of two results, one of none, and a synchronous one alone.
   */
  static TestModules.Spec speech() {
    TestModules.Spec spec =
        TestModules.spec()
            .name("speech")
            .bytecodeVersion(17, 0)
            .function("predict$async", "0rrr_r", "iree.abi.declaration", PREDICT_ASYNC)
            .function("predict", "0r_r", "iree.abi.declaration", PREDICT)
            .function("classify$async", "0rrr_r")
            .function("classify", "0r_r")
            .function("pair$async", "0rrr_ri", "iree.abi.declaration", PAIR_ASYNC)
            .function("reset$async", "0rr_v")
            .function("sync_only", "0r_r")
            .function("__init", "0v_v");
    List<String> names =
        List.of(
            "predict$async",
            "predict",
            "classify$async",
            "classify",
            "pair$async",
            "reset$async",
            "sync_only",
            "__init");
    for (int i = 0; i < names.size(); i++) {
      spec.export(names.get(i), i, null);
    }
    return spec;
  }

  static final String[] SPEECH = {
    "import dev.ireestubs.invoke.FencedFuture;",
    "import java.util.concurrent.CompletableFuture;",
    "@IreeModule(vmfb = \"models/speech.vmfb\")",
    "public interface Speech {",
    "  record Pair(FloatArray sum, Integer count) {}",
    "  FloatArray predict(FloatArray x);",
    "  CompletableFuture<FloatArray> predictAsync(FloatArray x);",
    "  FencedFuture<FloatArray> predict(FloatArray x, Fence wait);",
    "  CompletableFuture<VmRef> classifyAsync(VmRef input);",
    "  @IreeFunction(\"pair$async\") CompletableFuture<Pair> pair(float[] x);",
    "  CompletableFuture<Void> reset(Fence wait);",
    "}"
  };

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() throws IOException {
    t = new ProcessorTester(dir);
    Path vmfb = dir.resolve("models/speech.vmfb");
    Files.createDirectories(vmfb.getParent());
    Files.write(vmfb, speech().ireeZip());
  }

  private Compilation compile(String... lines) {
    return t.compile(source("Speech", lines));
  }

  @Test
  void futureMethodsBindToTheAsyncExportsOfTheirFunctions() {
    t.compileClean(source("Speech", SPEECH));
    CallPlan predictAsync = t.function("predictAsync");
    assertThat(predictAsync).isInstanceOf(CallPlan.Async.class);
    assertThat(predictAsync.functionName()).isEqualTo("predict$async");
    assertThat(predictAsync.signature().model()).isEqualTo(CallingModel.COARSE_FENCES);
    assertThat(predictAsync.reflectionSource())
        .isEqualTo("models/speech.vmfb (iree.abi.declaration)");
    assertThat(((CallPlan.Async) predictAsync).future()).isEqualTo(CallPlan.Future.COMPLETABLE);
    assertThat(((CallPlan.Async) predictAsync).waitParameter()).isEmpty();
    CallPlan fenced =
        t.model().functions().stream()
            .filter(f -> f.methodName().equals("predict") && f instanceof CallPlan.Async)
            .findFirst()
            .orElseThrow();
    assertThat(fenced.functionName()).isEqualTo("predict$async");
    assertThat(((CallPlan.Async) fenced).future()).isEqualTo(CallPlan.Future.FENCED);
    assertThat(((CallPlan.Async) fenced).waitParameter()).isEqualTo(Optional.of("wait"));
    assertThat(fenced.parameters()).hasSize(1);
    assertThat(t.function("classifyAsync").functionName()).isEqualTo("classify$async");
    assertThat(t.function("classifyAsync").reflectionSource())
        .isEqualTo("models/speech.vmfb (calling convention)");
    assertThat(t.function("pair").functionName()).isEqualTo("pair$async");
    assertThat(t.function("pair").result()).isInstanceOf(ResultModel.Inlined.class);
    assertThat(t.function("reset").functionName()).isEqualTo("reset$async");
    assertThat(t.function("reset").result()).isInstanceOf(ResultModel.Void.class);
  }

  @Test
  void generatedSourceMatchesTheGoldenFile() throws IOException {
    Compilation c = t.compileClean(source("Speech", SPEECH));
    ProcessorTester.assertGolden(
        ProcessorTester.generatedSource(c, "Iree_Speech"), "Iree_Speech.java");
  }

  /** Bodies for the module's exports: asynchronous ones complete when {@code gate} does. */
  private static Map<String, DynamicHostFunction> bodies(
      CompletableFuture<Void> gate, AtomicInteger ran) {
    return Map.of(
        "predict",
        args -> twice((FloatArray) args.get(0)),
        "predict$async",
        args -> {
          FloatArray x = (FloatArray) args.get(0);
          float[] copy = x.toArray();
          return gate.thenApply(
              ready -> {
                ran.incrementAndGet();
                return twice(FloatArray.of(copy, 1, 4));
              });
        },
        "classify$async",
        args -> CompletableFuture.completedFuture(args.get(0)),
        "pair$async",
        args -> {
          float[] x = ((FloatArray) args.get(0)).toArray();
          return gate.thenApply(ready -> List.of(FloatArray.of(x, 4), x.length));
        },
        "reset$async",
        args -> gate.thenApply(ready -> null));
  }

  private static FloatArray twice(FloatArray x) {
    return FloatArray.of(
        new float[] {2 * x.get(0, 0) + 2 * x.get(0, 1), 2 * x.get(0, 2) + 2 * x.get(0, 3)}, 1, 2);
  }

  @Test
  void theStubCallsAFakeOfTheAsynchronousModule() throws Exception {
    CompiledClasses classes = new CompiledClasses(t.compileClean(source("Speech", SPEECH)));
    Class<?> iface = classes.load("test.Speech");
    CompletableFuture<Void> gate = new CompletableFuture<>();
    AtomicInteger ran = new AtomicInteger();
    try (HostModule fake = HostModule.fake(dir.resolve("models/speech.vmfb"), bodies(gate, ran))) {
      Object stub =
          classes
              .load("test.Iree_Speech")
              .getConstructor(dev.ireestubs.invoke.ModuleBackend.class)
              .newInstance(fake);
      FloatArray x = FloatArray.of(new float[] {1, 2, 3, 4}, 1, 4);
      assertThat(((FloatArray) call(iface, stub, "predict", x)).toArray())
          .isEqualTo(new float[] {6, 14});

      CompletableFuture<?> later = (CompletableFuture<?>) call(iface, stub, "predictAsync", x);
      assertThat(later).isInstanceOf(FencedFuture.class); // declared CompletableFuture
      CompletableFuture<?> pair =
          (CompletableFuture<?>) call(iface, stub, "pair", (Object) new float[] {1, 2, 3, 4});
      assertThat(later.isDone() || pair.isDone()).isFalse();
      gate.complete(null);
      assertThat(((FloatArray) later.get(10, TimeUnit.SECONDS)).toArray())
          .isEqualTo(new float[] {6, 14});
      Object p = pair.get(10, TimeUnit.SECONDS);
      RecordComponent[] parts = p.getClass().getRecordComponents();
      assertThat(((FloatArray) parts[0].getAccessor().invoke(p)).toArray())
          .isEqualTo(new float[] {1, 2, 3, 4});
      assertThat(parts[1].getAccessor().invoke(p)).isEqualTo(4);

      BufferView view = FloatArray.of(new float[] {5}, 1).asBufferView();
      assertThat(((CompletableFuture<?>) call(iface, stub, "classifyAsync", view)).get())
          .isSameInstanceAs(view);
    }
  }

  @Test
  void aCallWithAWaitFenceRunsAfterIt() throws Exception {
    CompiledClasses classes = new CompiledClasses(t.compileClean(source("Speech", SPEECH)));
    Class<?> iface = classes.load("test.Speech");
    AtomicInteger ran = new AtomicInteger();
    try (HostModule fake =
        HostModule.fake(
            dir.resolve("models/speech.vmfb"),
            bodies(CompletableFuture.completedFuture(null), ran))) {
      Object stub =
          classes
              .load("test.Iree_Speech")
              .getConstructor(dev.ireestubs.invoke.ModuleBackend.class)
              .newInstance(fake);
      FloatArray x = FloatArray.of(new float[] {1, 2, 3, 4}, 1, 4);
      CompletableFuture<Void> input = new CompletableFuture<>();
      java.lang.reflect.Method predict = iface.getMethod("predict", FloatArray.class, Fence.class);
      FencedFuture<?> first = (FencedFuture<?>) predict.invoke(stub, x, Fence.of(input));
      FencedFuture<?> second = (FencedFuture<?>) predict.invoke(stub, x, first.signal());
      CompletableFuture<?> reset =
          (CompletableFuture<?>)
              iface.getMethod("reset", Fence.class).invoke(stub, second.signal());
      assertThat(ran.get()).isEqualTo(0);
      assertThat(reset.isDone()).isFalse();
      input.complete(null);
      assertThat(reset.get(10, TimeUnit.SECONDS)).isNull();
      assertThat(ran.get()).isEqualTo(2);
      assertThat(second.signal().isReached()).isTrue();
      assertThat(((FloatArray) first.get()).toArray()).isEqualTo(new float[] {6, 14});
    }
  }

  @Test
  void failuresReachTheFutureAndBadArgumentsAreThrownAtOnce() throws Exception {
    CompiledClasses classes = new CompiledClasses(t.compileClean(source("Speech", SPEECH)));
    Class<?> iface = classes.load("test.Speech");
    Map<String, DynamicHostFunction> bodies =
        Map.of(
            "predict$async",
            args -> CompletableFuture.failedFuture(new IllegalStateException("no model")));
    try (HostModule full =
        HostModule.fake(
            dir.resolve("models/speech.vmfb"),
            Map.of(
                "predict$async", bodies.get("predict$async"),
                "predict", args -> args.get(0),
                "classify$async", args -> args.get(0),
                "pair$async", args -> null,
                "reset$async", args -> null))) {
      Object stub =
          classes
              .load("test.Iree_Speech")
              .getConstructor(dev.ireestubs.invoke.ModuleBackend.class)
              .newInstance(full);
      CompletableFuture<?> r =
          (CompletableFuture<?>)
              call(iface, stub, "predictAsync", FloatArray.of(new float[] {1, 2, 3, 4}, 1, 4));
      ExecutionException e = assertThrows(ExecutionException.class, r::get);
      assertThat(e).hasCauseThat().isInstanceOf(IreeInvocationException.class);
      assertThat(e.getCause()).hasCauseThat().hasMessageThat().isEqualTo("no model");
      IreeValueException wrong =
          assertThrows(
              IreeValueException.class,
              () -> call(iface, stub, "predictAsync", FloatArray.of(new float[] {1, 2, 3}, 1, 3)));
      assertThat(wrong).hasMessageThat().contains("predict$async: x");
      IreeValueException shortArray =
          assertThrows(
              IreeValueException.class, () -> call(iface, stub, "pair", (Object) new float[] {1}));
      assertThat(shortArray).hasMessageThat().contains("pair$async: x");
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Diagnostics

  @Test
  void aFutureMethodWhoseFunctionHasNoAsyncExportIsAnError() {
    JavaFileObject src =
        source(
            "Speech",
            "import java.util.concurrent.CompletableFuture;",
            "@IreeModule(vmfb = \"models/speech.vmfb\")",
            "public interface Speech {",
            "  CompletableFuture<FloatArray> syncOnly(FloatArray x);",
            "  @IreeFunction(\"sync_only\") CompletableFuture<VmRef> named(VmRef x);",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining(
            "[IreeNotAsync] syncOnly: method syncOnly returns a future, so it calls the asynchronous"
                + " export of \"syncOnly\" (\"syncOnly$async\" or \"syncOnly\"), but the compiled"
                + " module \"models/speech.vmfb\" has no asynchronous export of that name (its"
                + " asynchronous exports: predict$async, classify$async, pair$async, reset$async)")
        .inFile(src)
        .onLineContaining("syncOnly(FloatArray x)");
    assertThat(c)
        .hadErrorContaining(
            "[IreeNotAsync] sync_only: method named returns a future, so it calls the asynchronous"
                + " export of \"sync_only\" (\"sync_only$async\" or \"sync_only\")")
        .inFile(src)
        .onLineContaining("@IreeFunction(\"sync_only\")");
  }

  @Test
  void aFutureWithoutItsResultTypeIsAnError() {
    JavaFileObject src =
        source(
            "Speech",
            "import java.util.concurrent.CompletableFuture;",
            "@IreeModule(vmfb = \"models/speech.vmfb\")",
            "public interface Speech {",
            "  @SuppressWarnings(\"rawtypes\") CompletableFuture predictAsync(FloatArray x);",
            "  CompletableFuture<?> classifyAsync(VmRef x);",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predictAsync: method predictAsync returns CompletableFuture"
                + " without its result type; declare it, e.g. CompletableFuture<FloatArray>, or"
                + " CompletableFuture<Void> for a function that returns nothing")
        .inFile(src)
        .onLineContaining("CompletableFuture predictAsync");
    assertThat(c)
        .hadErrorContaining(
            "method classifyAsync returns CompletableFuture<?> without its result type")
        .inFile(src)
        .onLineContaining("classifyAsync");
  }

  @Test
  void aWaitFenceComesLastAndOnlyOnFutureMethods() {
    JavaFileObject src =
        source(
            "Speech",
            "import java.util.concurrent.CompletableFuture;",
            "@IreeModule(vmfb = \"models/speech.vmfb\")",
            "public interface Speech {",
            "  CompletableFuture<FloatArray> predictAsync(Fence first, FloatArray x);",
            "  FloatArray predict(FloatArray x, Fence after);",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predictAsync: parameter first of method predictAsync is a Fence,"
                + " the call's wait fence, which comes last, after the function's arguments; move it"
                + " to the end")
        .inFile(src)
        .onLineContaining("Fence first");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predict: parameter after of method predict is a Fence, the"
                + " wait fence of an asynchronous call, but the method is synchronous")
        .inFile(src)
        .onLineContaining("Fence after");
  }

  @Test
  void otherFuturesAreNotAsynchronousMethods() {
    JavaFileObject src =
        source(
            "Speech",
            "import java.util.concurrent.CompletionStage;",
            "@IreeModule(vmfb = \"models/speech.vmfb\")",
            "public interface Speech {",
            "  CompletionStage<FloatArray> predictAsync(FloatArray x);",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predictAsync: method predictAsync returns"
                + " CompletionStage<FloatArray>, but an asynchronous method returns"
                + " CompletableFuture<T> (or FencedFuture<T>, which carries the call's signal"
                + " fence); change the return type to CompletableFuture<FloatArray>")
        .inFile(src)
        .onLineContaining("CompletionStage<FloatArray> predictAsync");
  }

  @Test
  void theResultTypeIsCheckedAgainstTheAsyncExport() {
    JavaFileObject src =
        source(
            "Speech",
            "import java.util.concurrent.CompletableFuture;",
            "@IreeModule(vmfb = \"models/speech.vmfb\")",
            "public interface Speech {",
            "  CompletableFuture<IntArray> predictAsync(FloatArray x);",
            "  CompletableFuture<FloatArray> reset();",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining("[IreeSignatureMismatch] predict$async: result is tensor<1x2xf32>")
        .inFile(src)
        .onLineContaining("predictAsync");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] reset$async: the function returns nothing in the module, but"
                + " method reset returns FloatArray; change the return type to void")
        .inFile(src)
        .onLineContaining("reset()");
  }

  @Test
  void anInlineSignatureMustBeAsynchronous() {
    JavaFileObject src =
        source(
            "Inline",
            "import java.util.concurrent.CompletableFuture;",
            "@IreeModule(name = \"m\")",
            "public interface Inline {",
            "  @IreeFunction(value = \"f\", abi = \"sync func @f(%a: tensor<4xf32>) -> (%b: tensor<4xf32>)\")",
            "  CompletableFuture<FloatArray> f(FloatArray a);",
            "  @IreeFunction(value = \"g$async\", abi = \"async func @g(%a: tensor<4xf32>) -> (%b: tensor<4xf32>)\")",
            "  CompletableFuture<FloatArray> g(FloatArray a);",
            "}");
    Compilation c = t.compile(src);
    assertThat(c)
        .hadErrorContaining(
            "[IreeNotAsync] f: method f returns a future, so it calls an asynchronous function (with"
                + " a wait and a signal fence), but \"f\" is synchronous")
        .inFile(src)
        .onLineContaining("CompletableFuture<FloatArray> f(");
    assertThat(c.errors()).hasSize(1);
  }
}
