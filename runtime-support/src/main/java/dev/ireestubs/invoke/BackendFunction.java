package dev.ireestubs.invoke;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.vm.VmList;
import java.util.Map;

/**
 * One exported function of a loaded module, as its backend sees it: a name, the IREE calling
 * convention string ({@code 0rr_r}), the reflection attributes the module carries for it, and a
 * call that takes and returns native-ABI lists.
 *
 * <h2>What a backend may keep of its arguments</h2>
 *
 * <p>Argument memory is lent only for the call. A {@link dev.ireestubs.vm.BufferView} argument
 * is usually a view of the caller's array or of a copy the stub made for this call alone, which
 * is freed as soon as the call is over ({@link
 * dev.ireestubs.vm.BufferView#endCall()}). So a backend:
 *
 * <ul>
 *   <li>reads an argument's bytes during the call through {@link
 *       dev.ireestubs.vm.BufferView#pin()}, closing the pin when done;
 *   <li>keeps the memory past the call (imports it into a device buffer, keeps a view for reuse)
 *       only while holding a pin, closed when it lets go (IREE's backend closes it in the import's
 *       release callback), so the memory is freed after, never before;
 *   <li>may return an argument's view as a result (an identity function): whoever decodes the
 *       result pins it before the call's copies end, and keeps it valid as long as it is used;
 *   <li>that takes the raw bytes ({@link dev.ireestubs.vm.BufferView#data()}) makes the memory
 *       escape: it is then never freed early, only by the garbage collector. Always safe, but the
 *       caller's memory then waits for a collection.
 * </ul>
 *
 * <p>A view kept past the call without a pin is not memory: {@code pin()} and {@code data()} on it
 * throw {@link IllegalStateException} once it was freed. Result memory a backend hands over may
 * carry a {@link dev.ireestubs.vm.MemoryLease} of its own ({@link dev.ireestubs.vm.BufferView#lend}),
 * released when the arrays made over it are closed.
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
   * The types the function's bytecode states, for a backend that read its module's function
   * bodies ({@link dev.ireestubs.vmfb.VmfbExport#bytecodeTypes()}); ranked by {@link #signature()}
   * after the reflection attributes and before the calling convention.
   *
   * @return the bytecode's types; {@link BytecodeTypes#none()} by default
   */
  default BytecodeTypes bytecodeTypes() {
    return BytecodeTypes.none();
  }

  /**
   * The best signature this function's reflection, bytecode and calling convention give, chosen
   * as everywhere in iree-stubs ({@link Reflection#resolve(Map, String, BytecodeTypes)}).
   *
   * @return the signature, where it came from, and warnings about sources skipped
   * @throws dev.ireestubs.abi.AbiParseException when the chosen reflection does not parse
   * @throws IllegalArgumentException when there is no usable reflection and no calling convention
   */
  default Reflection.Resolved signature() {
    return Reflection.resolve(reflection(), callingConvention(), bytecodeTypes());
  }

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
