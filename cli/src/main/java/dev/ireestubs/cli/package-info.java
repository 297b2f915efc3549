/**
 * The iree-stubs command line ({@link dev.ireestubs.cli.Main}): {@code inspect} reads a compiled
 * module with {@link dev.ireestubs.vmfb.VmfbReader}, prints each export's signature as {@link
 * dev.ireestubs.abi.Reflection} resolves it, and suggests the Java interface a user could write for
 * it.
 */
package dev.ireestubs.cli;
