package dev.ireestubs.example;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The classifier module implemented in Java as a host module: a linear model over 16 pixels with 10
 * classes, and an embedding table of 100 tokens by 8, whose weights are generated
 * deterministically. It receives and returns the same native-ABI lists a compiled module would, so
 * the stub cannot tell the difference.
 */
final class ClassifierModel {
  static final int PIXELS = 16;
  static final int CLASSES = 10;
  static final int VOCABULARY = 100;
  static final int EMBEDDING = 8;

  private final float[][] weights = new float[CLASSES][PIXELS];
  private final float[] bias = new float[CLASSES];
  private final float[][] embeddings = new float[VOCABULARY][EMBEDDING];

  ClassifierModel() {
    for (int c = 0; c < CLASSES; c++) {
      bias[c] = 0.01f * c;
      for (int p = 0; p < PIXELS; p++) {
        weights[c][p] = (float) Math.sin(1.0 + c * PIXELS + p);
      }
    }
    for (int t = 0; t < VOCABULARY; t++) {
      for (int e = 0; e < EMBEDDING; e++) {
        embeddings[t][e] = (float) Math.cos(t * 0.37 + e);
      }
    }
  }

  /** The module, registered under the signatures of {@code classifier.abi.json}. */
  HostModule module() {
    Map<String, FunctionSignature> signatures =
        AbiJson.parseModule(resource("classifier.abi.json"));
    return HostModule.builder("classifier")
        .valueFunction(
            "predict", signatures.get("predict"), args -> predict((Map<?, ?>) args.get(0)))
        .valueFunction("embed", signatures.get("embed"), args -> embed((IntArray) args.get(0)))
        .valueFunction(
            "classify_batch",
            signatures.get("classify_batch"),
            args -> {
              List<Integer> top = new ArrayList<>();
              for (Object image : (List<?>) args.get(0)) {
                top.add(topClass(logits((FloatArray) image)));
              }
              return top;
            })
        .build();
  }

  private Map<String, Object> predict(Map<?, ?> features) {
    float[] logits = logits((FloatArray) features.get("image"));
    float temperature = (Float) features.get("temperature");
    float[] probabilities = softmax(logits, temperature);
    return Map.of(
        "logits", FloatArray.of(logits, 1, CLASSES),
        "probabilities", FloatArray.of(probabilities, 1, CLASSES),
        "top_class", topClass(logits));
  }

  private float[] logits(FloatArray image) {
    float[] pixels = image.toArray(); // 1x4x4, flattened row-major
    float[] out = new float[CLASSES];
    for (int c = 0; c < CLASSES; c++) {
      float sum = bias[c];
      for (int p = 0; p < PIXELS; p++) {
        sum += weights[c][p] * pixels[p];
      }
      out[c] = sum;
    }
    return out;
  }

  private static float[] softmax(float[] logits, float temperature) {
    float max = Float.NEGATIVE_INFINITY;
    for (float l : logits) {
      max = Math.max(max, l);
    }
    float[] out = new float[logits.length];
    float total = 0;
    for (int i = 0; i < logits.length; i++) {
      out[i] = (float) Math.exp((logits[i] - max) / temperature);
      total += out[i];
    }
    for (int i = 0; i < out.length; i++) {
      out[i] /= total;
    }
    return out;
  }

  private static int topClass(float[] logits) {
    int best = 0;
    for (int i = 1; i < logits.length; i++) {
      if (logits[i] > logits[best]) {
        best = i;
      }
    }
    return best;
  }

  private FloatArray embed(IntArray tokens) {
    float[] mean = new float[EMBEDDING];
    long n = tokens.dim(1);
    for (long i = 0; i < n; i++) {
      int token = Math.floorMod(tokens.get(0, i), VOCABULARY);
      for (int e = 0; e < EMBEDDING; e++) {
        mean[e] += embeddings[token][e] / n;
      }
    }
    return FloatArray.of(mean, 1, EMBEDDING);
  }

  static String resource(String name) {
    try (InputStream in = ClassifierModel.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
