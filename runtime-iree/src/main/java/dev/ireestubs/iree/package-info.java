/**
 * The backend that runs compiled modules on IREE's own C runtime, through {@code java.lang.foreign}
 * (JDK 22 or newer, run with {@code --enable-native-access=ALL-UNNAMED}).
 *
 * <p>The user supplies the runtime as a shared library of the IREE release that compiled the
 * modules (iree-stubs ships none): system property {@value
 * dev.ireestubs.iree.IreeLibrary#PROPERTY} or environment variable {@value
 * dev.ireestubs.iree.IreeLibrary#ENVIRONMENT_VARIABLE}. {@link dev.ireestubs.iree.IreeBackend#open}
 * gives a {@link dev.ireestubs.iree.IreeSession}, a {@link dev.ireestubs.invoke.ModuleBackend}
 * that generated stubs bind to; {@link dev.ireestubs.iree.IreeRuntime} makes several sessions on
 * one instance.
 *
 * <p>Every failing call into IREE becomes an {@link dev.ireestubs.invoke.IreeInvocationException}
 * carrying IREE's status code ({@link dev.ireestubs.iree.IreeStatusCode}) and text; a module of
 * another IREE release or CPU becomes an {@link
 * dev.ireestubs.iree.IreeIncompatibleModuleException} that says so. Sessions serialise their calls;
 * everything native is released exactly once when its owner is closed.
 */
package dev.ireestubs.iree;
