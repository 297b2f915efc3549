package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;

/**
 * {@code models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb}: a real ONNX
 * import with no reflection; the signature is the one its bytecode states (what {@code VmfbReader}
 * reads and the processor derives from the module itself, stated inline here so that the test
 * compiles without {@code ../shared}).
 */
@IreeModule(name = "module")
public interface MicroSpeech {
  String FILE = "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";

  /** 1,960 bytes: the 1x49x40x1 features of a recording of "yes". */
  String YES = "models/2026-06_iree-embedded_micro_speech_yes_features.input.bin";

  String BYTECODE =
      "sync func @tf2onnx(%input0: tensor<1x49x40x1xi8>) -> (%output0: tensor<1x4xf32>)";

  @IreeFunction(abi = BYTECODE)
  FloatArray tf2onnx(ByteArray features);
}
