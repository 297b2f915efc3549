package dev.ireestubs.example.spark;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;
import java.util.List;

/**
 * The TFLite-Micro {@code micro_speech} keyword spotter, imported through ONNX and compiled by IREE
 * 3.11 ({@code 2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb} in the shared
 * folder's {@code models/}). The module carries no reflection but its calling conventions; the
 * signature below is the one its bytecode asserts and creates (what {@code iree-stubs inspect} and
 * derive mode read from it), written inline so that this example compiles without the {@code
 * .vmfb}: one 1x49x40x1 frame of 8-bit spectrogram features in, four logits out (silence, unknown,
 * yes, no; no softmax). The stub checks it against the loaded module when it binds.
 */
@IreeModule(name = "module")
public interface MicroSpeech {

  /** The module's file name, in the shared folder's {@code models/}. */
  String FILE = "2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";

  /** 1,960 bytes: the features of a real recording of "yes", beside the module. */
  String YES = "2026-06_iree-embedded_micro_speech_yes_features.input.bin";

  /** Bytes in one frame: 49 time slices of 40 frequency channels, signless 8-bit. */
  int FRAME_BYTES = 49 * 40;

  /** What each logit stands for, in order. */
  List<String> LABELS = List.of("silence", "unknown", "yes", "no");

  /**
   * Scores one frame.
   *
   * @param features 1x49x40x1 signless 8-bit features
   * @return 1x4 logits: silence, unknown, yes, no
   */
  @IreeFunction(
      abi = "sync func @tf2onnx(%input0: tensor<1x49x40x1xi8>) -> (%output0: tensor<1x4xf32>)")
  FloatArray tf2onnx(ByteArray features);
}
