package dev.ireestubs.benchmarks.iree;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import java.nio.FloatBuffer;
import java.util.Map;

/**
 * The same computation, {@code sum = a + b} over two {@code float[4]}, through ONNX Runtime Java
 * ({@code add.onnx} of {@link AddOnnx}: one intra-op thread, sequential) and through a stub over
 * IREE's {@code add} module, in the patterns a caller writes. One instance per calling thread: the
 * inputs and the output array are its own; the session (ORT's, or the stub's backend) is shared.
 */
public final class PeerCalls {

  /** The patterns, each one call. */
  public enum Pattern {
    /** Inputs made once and reused; the result closed. */
    REUSED,
    /** Inputs made and closed each call; the result closed. */
    NEW_INPUTS,
    /** The same, the result read into a {@code float[]} before it is closed. */
    NEW_INPUTS_READ,
    /**
     * The same, the result read into a new {@code float[]}: {@code toArray()}; ORT's {@code
     * getValue()}.
     */
    NEW_INPUTS_TO_ARRAY,
    /**
     * The same, the result read through a buffer: {@code asFloatBuffer()} (which hands the memory
     * out, so it is not reused); ORT's {@code getFloatBuffer()} (a copy).
     */
    NEW_INPUTS_BUFFER,
    /** No call: two input arrays (tensors) made and closed. */
    MAKE_AND_CLOSE
  }

  private static final long[] SHAPE = {4};

  private final float[] dataA = {1, 2, 3, 4};
  private final float[] dataB = {10, 20, 30, 40};
  private final float[] out = new float[4];

  // ORT
  private final OrtEnvironment env;
  private final OrtSession ort;
  private final OnnxTensor ortA;
  private final OnnxTensor ortB;
  private final Map<String, OnnxTensor> ortInputs;

  // iree-stubs
  private final Adder stub;
  private final FloatArray a;
  private final FloatArray b;

  PeerCalls(OrtEnvironment env, OrtSession ort, ModuleBackend backend) throws OrtException {
    this.env = env;
    this.ort = ort;
    this.ortA = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataA), SHAPE);
    this.ortB = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataB), SHAPE);
    this.ortInputs = Map.of("a", ortA, "b", ortB);
    this.stub = new Iree_Adder(backend);
    this.a = FloatArray.of(dataA, SHAPE);
    this.b = FloatArray.of(dataB, SHAPE);
  }

  /** ONNX Runtime's session for {@link AddOnnx}: one intra-op thread, sequential execution. */
  static OrtSession ortSession(OrtEnvironment env) throws OrtException {
    try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
      return env.createSession(AddOnnx.bytes(), options);
    }
  }

  void close() {
    ortA.close();
    ortB.close();
    a.close();
    b.close();
  }

  /** One call of {@code pattern} on ONNX Runtime; returns something that depends on it. */
  float ort(Pattern pattern) throws OrtException {
    switch (pattern) {
      case REUSED -> {
        try (OrtSession.Result r = ort.run(ortInputs)) {
          return r.size();
        }
      }
      case NEW_INPUTS, NEW_INPUTS_READ, NEW_INPUTS_TO_ARRAY, NEW_INPUTS_BUFFER -> {
        try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataA), SHAPE);
            OnnxTensor y = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataB), SHAPE);
            OrtSession.Result r = ort.run(Map.of("a", x, "b", y))) {
          if (pattern == Pattern.NEW_INPUTS) {
            return r.size();
          }
          OnnxTensor sum = (OnnxTensor) r.get(0);
          if (pattern == Pattern.NEW_INPUTS_TO_ARRAY) {
            return ((float[]) sum.getValue())[3];
          }
          sum.getFloatBuffer().get(out);
          return out[3];
        }
      }
      default -> {
        try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataA), SHAPE);
            OnnxTensor y = OnnxTensor.createTensor(env, FloatBuffer.wrap(dataB), SHAPE)) {
          return x.getInfo().getShape().length + y.getInfo().getShape().length;
        }
      }
    }
  }

  /** One call of {@code pattern} through the stub; returns something that depends on it. */
  float stub(Pattern pattern) {
    switch (pattern) {
      case REUSED -> {
        try (FloatArray r = stub.add(a, b)) {
          return r.rank();
        }
      }
      case NEW_INPUTS, NEW_INPUTS_READ, NEW_INPUTS_TO_ARRAY, NEW_INPUTS_BUFFER -> {
        try (FloatArray x = FloatArray.of(dataA, SHAPE);
            FloatArray y = FloatArray.of(dataB, SHAPE);
            FloatArray r = stub.add(x, y)) {
          if (pattern == Pattern.NEW_INPUTS) {
            return r.rank();
          }
          if (pattern == Pattern.NEW_INPUTS_TO_ARRAY) {
            return r.toArray()[3];
          }
          if (pattern == Pattern.NEW_INPUTS_BUFFER) {
            r.asFloatBuffer().get(out);
          } else {
            r.copyInto(out);
          }
          return out[3];
        }
      }
      default -> {
        try (FloatArray x = FloatArray.of(dataA, SHAPE);
            FloatArray y = FloatArray.of(dataB, SHAPE)) {
          return x.rank() + y.rank();
        }
      }
    }
  }
}
