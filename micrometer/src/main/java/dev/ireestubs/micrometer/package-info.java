/**
 * Micrometer meters for iree-stubs backends: {@link dev.ireestubs.micrometer.IreeStubsMetrics}
 * binds a backend's call statistics to a {@code MeterRegistry}. The runtime itself depends on
 * nothing of Micrometer; this artifact needs the service's own {@code micrometer-core}.
 */
package dev.ireestubs.micrometer;
