package io.github.limiter.cdi;

import io.github.limiter.internal.admission.KeyResolvers;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link Limited} on CDI Lite (Quarkus ArC): the Build Compatible Extension that adds the
 * interceptor and its beans, finds the beans with {@link Limited} methods, hands them to the
 * runtime as the synthetic {@link LimiterDeployment} bean, and fails the deployment (on Quarkus,
 * the build) when one names a policy or parameter that does not exist or the configuration is
 * invalid, with the messages of {@link DeploymentChecks}.
 *
 * <p>Skipped where the portable {@link LimiterExtension} runs (Weld on Payara and WildFly, Open
 * Liberty): there the portable extension also checks the key resolvers and creates the store at
 * validation, which needs bean instances that a Build Compatible Extension cannot have before the
 * application starts. Here those two are checked as the application starts instead.
 */
@SkipIfPortableExtensionPresent(LimiterExtension.class)
public class LimitedBuildExtension implements BuildCompatibleExtension {

  private static final Logger LOG = Logger.getLogger(LimitedBuildExtension.class.getName());

  /** The bean classes that have {@link Limited}, on the class or on a method, by name. */
  private final Set<String> limitedClasses = new TreeSet<>();

  /** Creates the extension; containers find it through {@code META-INF/services}. */
  public LimitedBuildExtension() {}

  @Discovery
  public void discover(ScannedClasses scanned) {
    for (Class<?> type :
        List.of(LimitedInterceptor.class, LimitedCalls.class, LimiterBeans.class)) {
      scanned.add(type.getName());
    }
  }

  @Registration(types = Object.class)
  public void collect(BeanInfo bean) {
    if (!bean.isClassBean()
        || bean.isInterceptor()
        || bean.declaringClass().hasAnnotation(jakarta.interceptor.Interceptor.class)
        || bean.declaringClass().hasAnnotation(jakarta.decorator.Decorator.class)) {
      return; // never intercepted
    }
    for (ClassInfo type = bean.declaringClass();
        type != null;
        type = type.superClassDeclaration()) {
      if (type.hasAnnotation(Limited.class) || hasLimitedMethod(type)) {
        limitedClasses.add(bean.declaringClass().name());
        return;
      }
    }
  }

  private static boolean hasLimitedMethod(ClassInfo type) {
    for (MethodInfo method : type.methods()) {
      if (method.hasAnnotation(Limited.class)) {
        return true;
      }
    }
    return false;
  }

  @Synthesis
  public void synthesize(SyntheticComponents components) {
    components
        .addBean(FoundSites.class)
        .type(LimiterDeployment.class)
        .scope(Singleton.class)
        .withParam(FoundSites.CLASSES, limitedClasses.toArray(String[]::new))
        .createWith(FoundSites.Creator.class);
  }

  @Validation
  public void validate(Messages messages) {
    FoundSites found = new FoundSites(limitedClasses.toArray(String[]::new));
    try {
      found.setup();
    } catch (IllegalStateException e) {
      // No MicroProfile Config in this phase (a build without the application's configuration):
      // the application's start reads and checks it.
      LOG.log(Level.FINE, "@Limited is checked as the application starts", e);
      return;
    } catch (RuntimeException e) {
      // A ConfigException: DeploymentChecks reports each of its problems.
    }
    Map<String, Throwable> problems =
        DeploymentChecks.problems(
            found.sites(), found, loader -> KeyResolvers.unknownUntilStart(), unchecked -> {});
    problems.forEach(
        (message, cause) ->
            messages.error(
                cause == null ? message(message) : new DeploymentException(message, cause)));
  }

  private static DeploymentException message(String message) {
    DeploymentException problem = new DeploymentException(message);
    problem.setStackTrace(new StackTraceElement[0]);
    return problem;
  }
}
