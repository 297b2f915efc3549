package dev.ireestubs.example;

import dev.ireestubs.example.derived.DerivedClassifier;
import dev.ireestubs.example.derived.Iree_DerivedClassifier;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.vm.VmList;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The example application: calls a classifier and an adder through stubs the annotation processor
 * generated from their interfaces ({@link Classifier}, {@link Adder}), on modules implemented in
 * Java (the embedded default backend).
 */
public final class ExampleApp {

  private ExampleApp() {}

  /** Runs the example and prints what it does. */
  public static void main(String[] args) {
    run(System.out);
  }

  static void run(PrintStream out) {
    try (HostModule module = new ClassifierModel().module()) {
      Classifier classifier = new Iree_Classifier(module);
      out.println("== classifier (iree.abi JSON, host module in Java)");

      FloatArray image = FloatArray.of(new float[][][] {diagonal(4)});
      Classifier.Prediction p = classifier.predict(new Classifier.Features(image, 1.0f));
      out.println("predict(diagonal image): top class " + p.topClass());
      out.println("  probabilities " + format(p.probabilities().toArray()));

      FloatArray embedding = classifier.embed(IntArray.of(new int[][] {{3, 14, 15, 92, 65}}));
      out.println("embed([3, 14, 15, 92, 65]) = " + format(embedding.toArray()));

      List<Integer> top =
          classifier.classifyBatch(
              List.of(image, FloatArray.of(new float[][][] {ones(4)}), FloatArray.zeros(1, 4, 4)));
      out.println("classifyBatch([diagonal, ones, zeros]) = " + top);

      out.println("A wrong shape is refused before the model runs:");
      try {
        classifier.predict(new Classifier.Features(FloatArray.zeros(1, 4, 5), 1.0f));
      } catch (IreeValueException e) {
        out.println("  IreeValueException (" + e.side() + "): " + e.getMessage());
      }

      // Derive mode: the same module through a client the build derived from its reflection
      // (derived/package-info.java), with no hand-written interface.
      out.println("== derived client (@IreeClient: no hand-written interface)");
      DerivedClassifier derived = new Iree_DerivedClassifier(module);
      DerivedClassifier.PredictResult r =
          derived.predict(new DerivedClassifier.PredictInput(image, 1.0f));
      out.println("predict(diagonal image): top class " + r.topClass());
    }

    out.println("== adder (checked against the iree.abi.declaration of IREE 3.11's add module)");
    String module = System.getProperty("iree.module", "");
    try (ModuleBackend backend = module.isEmpty() ? javaAdder() : onIree(Path.of(module), out)) {
      Adder adder = new Iree_Adder(backend);
      FloatArray sum =
          adder.add(
              FloatArray.of(new float[] {1, 2, 3, 4}), FloatArray.of(new float[] {10, 20, 30, 40}));
      out.println("add([1, 2, 3, 4], [10, 20, 30, 40]) = " + format(sum.toArray()));
    }
  }

  /**
   * The compiled module on IREE's runtime (JDK 22+, with {@code -Diree.runtime.library=...} or
   * {@code IREE_RUNTIME_LIBRARY}), through the {@code runtime-iree} module, which is on the class
   * path only on JDK 22+; hence the lookup by name.
   */
  static ModuleBackend onIree(Path vmfb, PrintStream out) {
    out.println("running " + vmfb + " on IREE's runtime");
    try {
      Class<?> backend = Class.forName("dev.ireestubs.iree.IreeBackend");
      return (ModuleBackend) backend.getMethod("open", Path.class).invoke(null, vmfb);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "the IREE runtime backend needs JDK 22 or newer (this is "
              + Runtime.version().feature()
              + "); run with JDK 22+ to use -Diree.module",
          e);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtimeException) {
        throw runtimeException;
      }
      throw new IllegalStateException("cannot open " + vmfb + ": " + cause.getMessage(), cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the IREE runtime backend is unusable: " + e, e);
    }
  }

  /** The add function in Java, registered with the same declaration the compiled module carries. */
  static HostModule javaAdder() {
    return HostModule.builder("module")
        .function(
            "add",
            "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>)"
                + " -> (%output0: tensor<4xf32>)",
            args -> {
              FloatArray a = FloatArray.fromBufferView(args.getBufferView(0));
              FloatArray b = FloatArray.fromBufferView(args.getBufferView(1));
              FloatArray c = FloatArray.zeros(4);
              for (int i = 0; i < 4; i++) {
                c.set(a.get(i) + b.get(i), i);
              }
              return VmList.of(c.asBufferView());
            })
        .build();
  }

  private static float[][] diagonal(int n) {
    float[][] m = new float[n][n];
    for (int i = 0; i < n; i++) {
      m[i][i] = 1;
    }
    return m;
  }

  private static float[][] ones(int n) {
    float[][] m = new float[n][n];
    for (float[] row : m) {
      Arrays.fill(row, 1);
    }
    return m;
  }

  private static String format(float[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", values[i]));
    }
    return sb.append(']').toString();
  }
}
