package dev.ireestubs.host;

import java.util.List;

/**
 * The body of a function in a {@link HostModule}, written with Java values: arguments arrive in
 * the forms {@link dev.ireestubs.invoke.AbiValues} documents for results (maps for {@code sdict},
 * lists, n-d arrays, boxed scalars), and the return value is marshalled back by the signature.
 */
@FunctionalInterface
public interface DynamicHostFunction {

  /**
   * Runs the function.
   *
   * @param arguments one Java value per declared argument
   * @return null when the function has no results; the value of its single result; a {@code Map}
   *     or {@code List} (or record) for an inlined structure; a {@code List} for several results
   */
  Object call(List<Object> arguments);
}
