package io.github.limiter.internal.metrics;

import io.github.limiter.internal.config.MetricsSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Makes the recorder of a metrics backend, found with {@link ServiceLoader} so that the core
 * depends on no metrics library: {@code limiter-metrics} provides one for MicroProfile Metrics,
 * OpenTelemetry and Micrometer.
 */
public interface RecorderFactory {

  /**
   * The recorder of every backend this factory finds and {@code settings} switches on, or {@link
   * Recorder#NOOP}. Called once at start-up.
   */
  Recorder create(MetricsSettings settings);

  /**
   * The recorder for {@code settings}, over the factories {@code loader} finds: {@link
   * Recorder#NOOP} when metrics are off or no backend is present, so nothing runs per request.
   */
  static Recorder load(MetricsSettings settings, ClassLoader loader) {
    if (!settings.enabled()) {
      return Recorder.NOOP;
    }
    List<Recorder> recorders = new ArrayList<>();
    for (RecorderFactory factory : ServiceLoader.load(RecorderFactory.class, loader)) {
      recorders.add(factory.create(settings));
    }
    return Recorder.of(recorders);
  }
}
