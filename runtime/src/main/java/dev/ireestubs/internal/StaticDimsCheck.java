package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.invoke.ValueChecks;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;

/**
 * A bound function whose stub declares a dimension dynamic ({@code tensor<?xf32>}) where the loaded
 * module declares it static ({@code tensor<4xf32>}): the stub accepts any size there, so without
 * this IREE would be the first to see a wrong one and answer with its own status. {@link
 * FunctionBinder#bind} wraps such functions at bind time so that each call checks those arguments
 * against the module's own static dims first, and names the argument, the module's size and the
 * given shape.
 *
 * <p>Only top-level tensor arguments that are VM arguments one to one (every declaration-described
 * function) are checked. A call that passes allocates nothing. Thread-safe when the wrapped
 * function is.
 */
final class StaticDimsCheck implements BackendFunction {

  private final BackendFunction function;

  /** Per VM argument: the module's type where it fixes dims the stub's leaves open, else null. */
  private final AbiType.NdArray[] moduleTypes;

  /** Per VM argument: the stub's type where {@link #moduleTypes} has one, for the message. */
  private final AbiType.NdArray[] stubTypes;

  private StaticDimsCheck(
      BackendFunction function, AbiType.NdArray[] moduleTypes, AbiType.NdArray[] stubTypes) {
    this.function = function;
    this.moduleTypes = moduleTypes;
    this.stubTypes = stubTypes;
  }

  /**
   * {@code function}, checking at each call the dims the module declares static and the stub
   * ({@code expected}) dynamic; {@code function} itself when there are none.
   */
  static BackendFunction wrap(
      BackendFunction function, FunctionSignature expected, FunctionSignature module) {
    int n = module.arguments().size();
    if (expected.arguments().size() != n
        || module.vmArgumentCount() != expected.vmArgumentCount()
        || module.vmArgumentCount() != n + fences(module)) {
      return function; // structured arguments: VM slots are not arguments one to one
    }
    AbiType.NdArray[] moduleTypes = new AbiType.NdArray[n];
    AbiType.NdArray[] stubTypes = new AbiType.NdArray[n];
    boolean any = false;
    for (int i = 0; i < n; i++) {
      if (module.arguments().get(i) instanceof AbiType.NdArray m
          && expected.arguments().get(i) instanceof AbiType.NdArray s
          && tighter(m.shape(), s.shape())) {
        moduleTypes[i] = m;
        stubTypes[i] = s;
        any = true;
      }
    }
    return any ? new StaticDimsCheck(function, moduleTypes, stubTypes) : function;
  }

  /** The fences a call passes after the arguments: 2 under the coarse-fences model. */
  private static int fences(FunctionSignature signature) {
    return signature.model() == FunctionSignature.CallingModel.COARSE_FENCES ? 2 : 0;
  }

  /** True when {@code module} fixes a dim that {@code stub} leaves dynamic (or unranked). */
  private static boolean tighter(Shape module, Shape stub) {
    if (!module.isRanked()) {
      return false;
    }
    boolean moduleHasStatic = false;
    for (int a = 0; a < module.rank(); a++) {
      if (!module.isDynamic(a)) {
        moduleHasStatic = true;
        if (stub.isRanked() && stub.rank() == module.rank() && !stub.isDynamic(a)) {
          continue; // both static: the binder already compared them
        }
        return true;
      }
    }
    return moduleHasStatic && !stub.isRanked();
  }

  @Override
  public VmList invoke(VmList arguments) {
    check(arguments);
    return function.invoke(arguments);
  }

  @Override
  public AsyncCall invokeAsync(VmList arguments, Fence wait) {
    check(arguments);
    return function.invokeAsync(arguments, wait);
  }

  @Override
  public <T> FencedFuture<T> submitAsync(
      VmList arguments, Fence wait, Function<? super VmList, ? extends T> decoder) {
    check(arguments);
    return function.submitAsync(arguments, wait, decoder);
  }

  private void check(VmList arguments) {
    int count = Math.min(arguments.size(), moduleTypes.length);
    for (int i = 0; i < count; i++) {
      AbiType.NdArray module = moduleTypes[i];
      if (module != null
          && arguments.get(i) instanceof BufferView view
          && !ValueChecks.fits(module.shape(), view)) { // dims read in place, no copy
        throw IreeValueException.of(
            Side.ARGUMENT,
            function.qualifiedName() + ": arg" + i,
            "the module declares "
                + module
                + " but the argument has shape "
                + Arrays.toString(view.shape())
                + " (the stub declares "
                + stubTypes[i]
                + ", which leaves the size open, so it is checked against the module's static"
                + " dims at bind time); pass an array of the module's shape");
      }
    }
  }

  @Override
  public String qualifiedName() {
    return function.qualifiedName();
  }

  @Override
  public String callingConvention() {
    return function.callingConvention();
  }

  @Override
  public Map<String, String> reflection() {
    return function.reflection();
  }

  @Override
  public BytecodeTypes bytecodeTypes() {
    return function.bytecodeTypes();
  }

  @Override
  public String toString() {
    return function.toString();
  }
}
