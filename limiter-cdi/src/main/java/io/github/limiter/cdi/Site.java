package io.github.limiter.cdi;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * One business method under {@link Limited}: the bean class, the method, and the annotation that
 * applies to it (the method's own, else the class's).
 */
record Site(Class<?> beanClass, Method method, Limited limited, boolean fromClass) {

  /**
   * Where the annotation is, for messages: {@code @Limited("api") on
   * com.acme.Orders.place(String)}.
   */
  String describe() {
    return annotation(limited)
        + " on "
        + beanClass.getName()
        + "."
        + method.getName()
        + "("
        + Arrays.stream(method.getParameterTypes())
            .map(Class::getSimpleName)
            .collect(Collectors.joining(", "))
        + ")"
        + (fromClass ? " (declared on the class)" : "");
  }

  /** The annotation's own place: the method, or the class for a class-level annotation. */
  String describeDeclaration() {
    return fromClass ? annotation(limited) + " on class " + beanClass.getName() : describe();
  }

  static String annotation(Limited limited) {
    String[] names = limited.value();
    String value =
        names.length == 1
            ? quote(names[0])
            : Arrays.stream(names).map(Site::quote).collect(Collectors.joining(", ", "{", "}"));
    if (limited.key().isEmpty()
        && limited.permits() == 0
        && limited.cost().isEmpty()
        && limited.countOn().length == 0) {
      return "@Limited(" + value + ")";
    }
    StringBuilder text = new StringBuilder("@Limited(value = ").append(value);
    if (!limited.key().isEmpty()) {
      text.append(", key = ").append(quote(limited.key()));
    }
    if (limited.permits() != 0) {
      text.append(", permits = ").append(limited.permits());
    }
    if (!limited.cost().isEmpty()) {
      text.append(", cost = ").append(quote(limited.cost()));
    }
    if (limited.countOn().length > 0) {
      text.append(", countOn = ")
          .append(
              Arrays.stream(limited.countOn())
                  .map(type -> type.getSimpleName() + ".class")
                  .collect(Collectors.joining(", ", "{", "}")));
    }
    return text.append(')').toString();
  }

  private static String quote(String text) {
    return '"' + text + '"';
  }
}
