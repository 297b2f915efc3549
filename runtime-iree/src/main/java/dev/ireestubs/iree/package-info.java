/**
 * The backend that runs compiled modules on IREE's own C runtime, through {@code java.lang.foreign}
 * (JDK 22 or newer, run with {@code --enable-native-access=ALL-UNNAMED}).
 *
 * <p>The runtime is a shared library of the IREE release that compiled the modules (iree-stubs
 * publishes none; {@code runtime-iree/scripts/build-iree-runtime.sh} builds one from IREE's sources
 * and installs it where {@link dev.ireestubs.iree.IreeLibrary#load()} finds it, and the module
 * runtime-iree-native packages it into a jar for the class path): system property {@value
 * dev.ireestubs.iree.IreeLibrary#PROPERTY}, environment variable {@value
 * dev.ireestubs.iree.IreeLibrary#ENVIRONMENT_VARIABLE}, the native jar on the class path, or the
 * conventional per-user location. {@link dev.ireestubs.iree.IreeBackend#open} gives a {@link
 * dev.ireestubs.iree.IreeSession}, a {@link dev.ireestubs.invoke.ModuleBackend} that generated
 * stubs bind to; {@link dev.ireestubs.iree.IreeBackend#openPool} gives an {@link
 * dev.ireestubs.iree.IreeSessionPool}, sessions sharing one device and one loaded module for calls
 * from many threads at once; {@link dev.ireestubs.iree.IreeRuntime} makes several sessions and
 * pools on one instance. {@link dev.ireestubs.iree.Segments} passes native memory the caller owns
 * (a {@link java.lang.foreign.MemorySegment}) to a call without a copy, and reads results into it.
 *
 * <p><b>Trust.</b> A {@code .vmfb} contains native machine code that IREE runs in this process with
 * its full rights, unsandboxed: a corrupted module can kill the JVM (SIGILL) and a hostile one can
 * do anything the process can. Load only modules you would run as native programs.
 *
 * <p>Every failing call into IREE becomes an {@link dev.ireestubs.invoke.IreeInvocationException}
 * carrying IREE's status code ({@link dev.ireestubs.iree.IreeStatusCode}) and text; a module of
 * another IREE release or CPU becomes an {@link dev.ireestubs.iree.IreeIncompatibleModuleException}
 * that says so. Sessions serialise their calls; everything native is released exactly once when its
 * owner is closed. Sessions and pools report each call as a JFR event {@code dev.ireestubs.Call}
 * and in their {@code statistics()}, an MXBean under {@code dev.ireestubs}.
 */
package dev.ireestubs.iree;
