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
import org.eclipse.microprofile.metrics.MetricRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

  static final String CDI_API = "jakarta.enterprise.inject.spi.CDI";
  static final String MICROPROFILE = "org.eclipse.microprofile.metrics.MetricRegistry";
  static final String OPENTELEMETRY = "io.opentelemetry.api.metrics.Meter";
  static final String MICROMETER = "io.micrometer.core.instrument.MeterRegistry";

  @Override
  public Recorder create(MetricsSettings settings) {
    boolean cdi = present(CDI_API) && CdiBeans.running();
    List<Recorder> recorders = new ArrayList<>();
    if (settings.microprofileOn() && present(MICROPROFILE) && cdi) {
      MicroProfileBackend.fromBeans().ifPresent(recorders::add);
    }
    if (settings.opentelemetryOn() && present(OPENTELEMETRY)) {
      (cdi ? OpenTelemetryBackend.fromBeans() : Optional.<Recorder>empty()).or(OpenTelemetryBackend::global).ifPresent(recorders::add);
    }
    if (settings.micrometerOn() && present(MICROMETER)) {
      (cdi ? MicrometerBackend.fromBeans() : Optional.<Recorder>empty()).or(MicrometerBackend::global).ifPresent(recorders::add);
    }
    return Recorder.of(recorders);
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
      return CdiBeans.bean(MetricRegistry.class).map(MicroProfileRecorder::new);
    }
  }

  private static final class OpenTelemetryBackend {
    static Optional<Recorder> fromBeans() {
      return CdiBeans.bean(Meter.class)
          .or(() -> CdiBeans.bean(OpenTelemetry.class).map(o -> o.getMeter(OpenTelemetryRecorder.SCOPE)))
          .map(OpenTelemetryRecorder::new);
    }

    /** The global meter, if an SDK was installed; never the no-op one, which would cost for nothing. */
    static Optional<Recorder> global() {
      return GlobalOpenTelemetry.isSet()
          ? Optional.of(new OpenTelemetryRecorder(GlobalOpenTelemetry.getMeter(OpenTelemetryRecorder.SCOPE)))
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
      return global.getRegistries().isEmpty() ? Optional.empty() : Optional.of(new MicrometerRecorder(global));
    }
  }
}
