/**
 * The iree-stubs Maven plugin: goals {@code track-models} and {@code track-test-models} make an
 * incremental build regenerate and re-check a stub when its model file changed, though no Java
 * source did. See {@link dev.ireestubs.maven.StaleStubs} for how.
 */
package dev.ireestubs.maven;
