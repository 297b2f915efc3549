package dev.ireestubs.benchmarks;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;

/**
 * {@link Model} written by hand against the same API a generated stub uses ({@link VmList}, {@link
 * dev.ireestubs.vm.BufferView}, {@link FloatArray}), checking nothing: the baseline a stub is
 * measured against. A client class, as a stub is, so that both reach the caller as a method call
 * under the same inlining rules.
 */
final class HandWrittenModel implements Model {

  private final BackendFunction predict;
  private final BackendFunction add;

  HandWrittenModel(BackendFunction predict, BackendFunction add) {
    this.predict = predict;
    this.add = add;
  }

  @Override
  public Scores predict(Features features) {
    VmList arguments = VmList.variant(1);
    VmList featureList = VmList.variant(2);
    featureList.push(features.image().asBufferView());
    featureList.push(VmValue.f32(features.temperature()));
    arguments.push(featureList);
    VmList results = predict.invoke(arguments);
    return new Scores(
        FloatArray.fromBufferView(results.getBufferView(0)),
        FloatArray.fromBufferView(results.getBufferView(1)));
  }

  @Override
  public int add(int a, int b) {
    VmList arguments = VmList.variant(2);
    arguments.push(VmValue.i32(a));
    arguments.push(VmValue.i32(b));
    return add.invoke(arguments).getValue(0).asI32();
  }
}
