package dev.ireestubs.invoke;

import dev.ireestubs.vm.VmList;
import java.util.Map;

/**
 * One exported function of a loaded module, as its backend sees it: a name, the IREE calling
 * convention string ({@code 0rr_r}), the reflection attributes the module carries for it, and a
 * call that takes and returns native-ABI lists.
 */
public interface BackendFunction {

  /**
   * {@code module.function}.
   *
   * @return the module's name and the function's, joined by a dot
   */
  String qualifiedName();

  /**
   * The calling convention, e.g. {@code 0rr_r}: {@code i} i32, {@code I} i64, {@code f} f32, {@code
   * F} f64, {@code r} ref, before and after the {@code _}.
   *
   * @return the calling convention string, or an empty string when the module records none
   */
  String callingConvention();

  /**
   * Every reflection attribute of the function, in the module's order: {@code iree.abi}, {@code
   * iree.abi.declaration}, {@code iree.abi.model}, V0's {@code f}/{@code fv}/{@code sip}, ...
   *
   * @return the attribute names mapped to their text, unmodifiable; empty when the module has none
   */
  Map<String, String> reflection();

  /**
   * Calls the function. {@code arguments} is a variant list with one element per described
   * argument; a backend whose function takes wait/signal fences ({@code iree.abi.model =
   * "coarse-fences"}) appends them itself. The caller keeps ownership of {@code arguments} and
   * owns the returned list (close it to release refs it holds).
   *
   * @param arguments one element per argument the function's signature describes, fences excluded
   * @return the function's results as a new list, which the caller closes
   * @throws IreeInvocationException when the call fails in the backend; the message carries the
   *     backend's own text (and, for IREE, its status code)
   */
  VmList invoke(VmList arguments);
}
