package io.github.limiter.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link LimiterDeployment} of {@link LimitedBuildExtension}: the {@link Limited} methods of
 * the bean classes it found, by reflection, and the configuration, each read once.
 */
final class FoundSites implements LimiterDeployment {

  static final String CLASSES = "classes";

  private final String[] classNames;
  private List<Site> sites;
  private LimiterSetup setup;

  FoundSites(String[] classNames) {
    this.classNames = classNames.clone();
  }

  /** Creates the synthetic bean from the class names found at discovery. */
  public static final class Creator implements SyntheticBeanCreator<FoundSites> {
    /** Called by the container. */
    public Creator() {}

    @Override
    public FoundSites create(Instance<Object> lookup, Parameters params) {
      return new FoundSites(params.get(CLASSES, String[].class, new String[0]));
    }
  }

  @Override
  public synchronized List<Site> sites() {
    if (sites == null) {
      List<Site> found = new ArrayList<>();
      ClassLoader loader = LimiterDeployment.loader();
      for (String name : classNames) {
        try {
          found.addAll(sitesOf(Class.forName(name, false, loader)));
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException("@Limited bean class " + name + " is not loadable", e);
        }
      }
      sites = List.copyOf(found);
    }
    return sites;
  }

  @Override
  public synchronized LimiterSetup setup() {
    if (setup == null) {
      setup = LimiterSetup.load(LimiterDeployment.loader());
    }
    return setup;
  }

  /**
   * The business methods of {@code beanClass} under {@link Limited}, as the portable extension
   * finds them: its own and inherited methods, neither static, private, synthetic nor Object's; a
   * method's annotation wins over the class's.
   */
  static List<Site> sitesOf(Class<?> beanClass) {
    Limited onClass = beanClass.getAnnotation(Limited.class);
    List<Site> sites = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (Class<?> type = beanClass; type != null && type != Object.class; ) {
      for (Method method : type.getDeclaredMethods()) {
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers)
            || Modifier.isPrivate(modifiers)
            || method.isSynthetic()
            || method.isBridge()
            || !seen.add(signature(method))) {
          continue; // not a business method, or overridden by a subclass
        }
        Limited onMethod = method.getAnnotation(Limited.class);
        Limited limited = onMethod != null ? onMethod : onClass;
        if (limited != null) {
          sites.add(new Site(beanClass, method, limited, onMethod == null));
        }
      }
      type = type.getSuperclass();
    }
    return sites;
  }

  private static List<Object> signature(Method method) {
    return List.of(method.getName(), Arrays.asList(method.getParameterTypes()));
  }
}
