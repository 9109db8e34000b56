package io.github.limiter.internal.config;

/**
 * Which metrics backends may record, from {@code limiter.metrics.*}. A backend records only when it
 * is switched on here and the server offers it; switched off, it costs nothing per request.
 *
 * @param enabled {@code limiter.metrics.enabled}: off switches every backend off
 * @param microprofile {@code limiter.metrics.microprofile.enabled}
 * @param opentelemetry {@code limiter.metrics.opentelemetry.enabled}
 * @param micrometer {@code limiter.metrics.micrometer.enabled}
 */
public record MetricsSettings(
    boolean enabled, boolean microprofile, boolean opentelemetry, boolean micrometer) {

  public static final MetricsSettings DEFAULTS = new MetricsSettings(true, true, true, true);

  /** The key that switches MicroProfile Metrics off, for a message to name. */
  public static final String MICROPROFILE_KEY = CoreSettings.MICROPROFILE_ENABLED.name();

  /** The key that switches OpenTelemetry off. */
  public static final String OPENTELEMETRY_KEY = CoreSettings.OPENTELEMETRY_ENABLED.name();

  /** The key that switches Micrometer off. */
  public static final String MICROMETER_KEY = CoreSettings.MICROMETER_ENABLED.name();

  /** Whether MicroProfile Metrics may record. */
  public boolean microprofileOn() {
    return enabled && microprofile;
  }

  /** Whether OpenTelemetry may record. */
  public boolean opentelemetryOn() {
    return enabled && opentelemetry;
  }

  /** Whether Micrometer may record. */
  public boolean micrometerOn() {
    return enabled && micrometer;
  }
}
