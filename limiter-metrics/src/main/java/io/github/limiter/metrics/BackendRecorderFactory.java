package io.github.limiter.metrics;

import io.github.limiter.internal.config.MetricsSettings;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Finds the metrics backends the server offers, each by the presence of its API and then of a CDI
 * bean ({@code MetricRegistry}, {@code Meter} or {@code OpenTelemetry}, {@code MeterRegistry}), or
 * without CDI (Tomcat, Jetty) of a global registry that has been set up: OpenTelemetry's {@code
 * GlobalOpenTelemetry} or Micrometer's {@code Metrics.globalRegistry}. One recorder per backend
 * found; several fan out.
 *
 * <p>Each backend's classes are touched only in its own nested class, after its API was found, so
 * that a missing library never fails class loading here (imports alone load nothing).
 */
public final class BackendRecorderFactory implements RecorderFactory {

  private static final Logger LOG = Logger.getLogger(BackendRecorderFactory.class.getName());

  static final String CDI_API = "jakarta.enterprise.inject.spi.CDI";
  static final String MICROPROFILE = "org.eclipse.microprofile.metrics.MetricRegistry";
  static final String OPENTELEMETRY = "io.opentelemetry.api.metrics.Meter";
  static final String MICROMETER = "io.micrometer.core.instrument.MeterRegistry";

  @Override
  public Recorder create(MetricsSettings settings) {
    boolean cdi = present(CDI_API) && CdiBeans.running();
    List<Recorder> recorders = new ArrayList<>();
    if (settings.microprofileOn() && present(MICROPROFILE) && cdi) {
      add(
          recorders,
          "MicroProfile Metrics",
          MetricsSettings.MICROPROFILE_KEY,
          MicroProfileBackend::fromBeans);
    }
    if (settings.opentelemetryOn() && present(OPENTELEMETRY)) {
      add(
          recorders,
          "OpenTelemetry",
          MetricsSettings.OPENTELEMETRY_KEY,
          () ->
              (cdi ? OpenTelemetryBackend.fromBeans() : Optional.<Recorder>empty())
                  .or(OpenTelemetryBackend::global));
    }
    if (settings.micrometerOn() && present(MICROMETER)) {
      add(
          recorders,
          "Micrometer",
          MetricsSettings.MICROMETER_KEY,
          () ->
              (cdi ? MicrometerBackend.fromBeans() : Optional.<Recorder>empty())
                  .or(MicrometerBackend::global));
    }
    return Recorder.of(recorders);
  }

  /**
   * Adds the backend {@code find} finds; a backend that fails to be found is left out, never the
   * limiter.
   */
  private static void add(
      List<Recorder> recorders, String backend, String key, Supplier<Optional<Recorder>> find) {
    try {
      find.get().ifPresent(recorders::add);
    } catch (RuntimeException | LinkageError e) {
      // One line: the server's log is no place for a stack it cannot act on. The stack is at FINE.
      LOG.warning(
          "Limiter records no metrics on "
              + backend
              + ": "
              + e
              + "; to stop looking for it, set "
              + key
              + "=false");
      LOG.log(Level.FINE, "Limiter: why " + backend + " could not record", e);
    }
  }

  /** Whether {@code className} can be loaded where this library is, without initialising it. */
  static boolean present(String className) {
    try {
      Class.forName(className, false, BackendRecorderFactory.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static final class CdiBeans {
    static boolean running() {
      try {
        return CDI.current() != null;
      } catch (IllegalStateException e) {
        return false; // the API is there, but no container runs this application
      }
    }

    static <T> Optional<T> bean(Class<T> type) {
      Instance<T> beans = CDI.current().select(type);
      return beans.isResolvable() ? Optional.of(beans.get()) : Optional.empty();
    }
  }

  private static final class MicroProfileBackend {
    static Optional<Recorder> fromBeans() {
      // Through a bean of ours: Payara's registry producer needs a real injection point.
      return CdiBeans.bean(MicroProfileRegistry.class)
          .flatMap(MicroProfileRegistry::get)
          .map(MicroProfileRecorder::new);
    }
  }

  private static final class OpenTelemetryBackend {
    static Optional<Recorder> fromBeans() {
      return CdiBeans.bean(Meter.class)
          .or(
              () ->
                  CdiBeans.bean(OpenTelemetry.class)
                      .map(o -> o.getMeter(OpenTelemetryRecorder.SCOPE)))
          .map(OpenTelemetryRecorder::new);
    }

    /**
     * The global meter, if an SDK was installed; never the no-op one, which would cost for nothing.
     */
    static Optional<Recorder> global() {
      return GlobalOpenTelemetry.isSet()
          ? Optional.of(
              new OpenTelemetryRecorder(GlobalOpenTelemetry.getMeter(OpenTelemetryRecorder.SCOPE)))
          : Optional.empty();
    }
  }

  private static final class MicrometerBackend {
    static Optional<Recorder> fromBeans() {
      return CdiBeans.bean(MeterRegistry.class).map(MicrometerRecorder::new);
    }

    /** The global registry, if a registry was added to it; empty, it would record into nothing. */
    static Optional<Recorder> global() {
      CompositeMeterRegistry global = Metrics.globalRegistry;
      return global.getRegistries().isEmpty()
          ? Optional.empty()
          : Optional.of(new MicrometerRecorder(global));
    }
  }
}
