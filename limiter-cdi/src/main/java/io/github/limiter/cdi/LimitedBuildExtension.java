package io.github.limiter.cdi;

import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link Limited} on every CDI container (Weld on Payara and WildFly, Open Liberty, Quarkus ArC):
 * the Build Compatible Extension that adds the interceptor and its beans, finds the beans with
 * {@link Limited} methods, hands them to the runtime as the synthetic {@link LimiterDeployment}
 * bean, and fails the deployment (on Quarkus, the build when it has the configuration) when one
 * names a policy or parameter that does not exist or the configuration is invalid, with the
 * messages of {@link DeploymentChecks}.
 *
 * <p>The library jar carries no {@code beans.xml}: this extension adds its beans, so it works the
 * same whether or not the container scans the jar. What needs bean instances, which no Build
 * Compatible Extension has (that each key resolver a site names exists, and that the configured
 * store can be created), is checked at validation by the portable {@link LimiterExtension} where
 * the container runs one, and as the application starts ({@link LimiterBeans#start}) everywhere.
 */
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
    DeploymentChecks.atValidation(found).forEach(messages::error);
  }
}
