/**
 * What generated stubs call, and nothing a user should: binding a stub's functions ({@code
 * FunctionBinder}), marshalling its arguments and results ({@code Marshal}, whose checks are {@code
 * dev.ireestubs.invoke.ValueChecks}'), the constants and checks a stub is built from. Public only
 * because generated code lives in the user's packages. It sits above the user API and below nothing
 * a user holds: it uses {@code invoke}, {@code ndarray}, {@code vm} and {@code abi}, and no other
 * package uses it (the runtime's {@code LayeringTest} checks both).
 *
 * <p><b>Not API.</b> Every type here may change in any release, in step with the processor that
 * generates the code calling it; a stub and this package always come from the same iree-stubs
 * version (a stub from another version fails when it is bound, with a message saying to regenerate
 * it). Call a module through a generated stub, {@code dev.ireestubs.invoke.DynamicFunction} or a
 * backend instead.
 */
package dev.ireestubs.internal;
