package dev.ireestubs.pydm;

import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.CallCodec;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ValueChecks;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;

/**
 * The PyDM calling format as a {@link CallCodec}: positional arguments by the calling convention's
 * kinds (PyDM functions have no argument names), and results as the checked {@code
 * exception_result} and the decoded value.
 */
final class PyDmCodec implements CallCodec {

  private final List<VmKind> argumentKinds;

  PyDmCodec(List<VmKind> argumentKinds) {
    this.argumentKinds = List.copyOf(argumentKinds);
  }

  List<VmKind> argumentKinds() {
    return argumentKinds;
  }

  @Override
  public VmList encodeArguments(String function, List<?> positional, Map<String, ?> named) {
    if (!named.isEmpty()) {
      throw IreeValueException.of(
          IreeValueException.Side.ARGUMENT,
          function,
          "a PyDM function takes its arguments by position; none is named " + named.keySet());
    }
    if (positional.size() != argumentKinds.size()) {
      throw IreeValueException.of(
          IreeValueException.Side.ARGUMENT,
          function,
          "expected "
              + argumentKinds.size()
              + (argumentKinds.size() == 1 ? " argument" : " arguments")
              + " but got "
              + positional.size());
    }
    VmList list = VmList.variant(positional.size());
    for (int i = 0; i < positional.size(); i++) {
      String path = function + ": arg" + i;
      list.push(PyDm.encodeArgument(positional.get(i), argumentKinds.get(i), path));
    }
    return list;
  }

  /**
   * The decoded value, or the {@link PyException} of a non-zero {@code exception_result}; either
   * way but success the list is closed first.
   */
  @Override
  public Object decodeResults(String function, VmList results) {
    try {
      return PyDm.decodeResult(results, function);
    } catch (RuntimeException e) {
      throw ValueChecks.closeOnFailure(
          results, e); // the caller never sees the list: release its refs
    }
  }

  /**
   * The value slot as the VM holds it, after checking the {@code exception_result}; the list is
   * closed when the check fails.
   */
  Object checkResults(String function, VmList results) {
    try {
      return PyDm.checkResult(results, function);
    } catch (RuntimeException e) {
      throw ValueChecks.closeOnFailure(results, e);
    }
  }

  @Override
  public String toString() {
    return "PyDM";
  }
}
