package dev.ireestubs.benchmarks;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.List;

/**
 * {@link Model}'s two call shapes served by a backend whose bodies return precomputed results (no
 * model runs): {@code predict} returns two zero 1x1000 arrays, {@code add} adds its arguments. The
 * benchmarks that call through stubs build their module {@code bench} here.
 */
final class ModelBackends {

  /** {@code predict}'s signature, parsed from {@link Model#PREDICT_ABI}. */
  final FunctionSignature predict = AbiJson.parseFunction(Model.PREDICT_ABI);

  /** {@code add}'s signature, parsed from {@link Model#ADD_ABI}. */
  final FunctionSignature add = AbiJson.parseFunction(Model.ADD_ABI);

  private final HostFunction predictBody;
  private final HostFunction addBody =
      args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32()));

  ModelBackends() {
    BufferView logits = FloatArray.zeros(1, 1000).asBufferView();
    BufferView probabilities = FloatArray.zeros(1, 1000).asBufferView();
    predictBody = args -> VmList.of(logits, probabilities);
  }

  /**
   * Module {@code bench} with {@code predict}'s signature and body under each of {@code
   * predictNames} and {@code add}'s under each of {@code addNames}.
   *
   * @param raw a {@link RawBackend}, which checks nothing, if true; else the {@link
   *     dev.ireestubs.host.HostModule}, which checks arguments and results against the signature
   */
  ModuleBackend backend(boolean raw, List<String> predictNames, List<String> addNames) {
    RawBackend.Builder module = RawBackend.builder("bench");
    predictNames.forEach(name -> module.function(name, predict, predictBody));
    addNames.forEach(name -> module.function(name, add, addBody));
    return module.build(raw);
  }
}
