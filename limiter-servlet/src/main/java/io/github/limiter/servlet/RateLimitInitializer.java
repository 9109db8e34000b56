package io.github.limiter.servlet;

import io.github.limiter.ConfigException;
import io.github.limiter.internal.admin.AdminApi;
import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.log.StartLog;
import io.github.limiter.internal.runtime.HttpRoutes;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.WebFilter;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Checks the configuration of every {@link RateLimitFilter} declared in {@code web.xml} or by
 * {@code @WebFilter} when the application starts, and fails the start if one is invalid. The
 * filter's own {@code init} checks the same, but some containers (Payara) only log a filter whose
 * init fails and serve the application without it; an initializer that throws fails the deployment
 * (on Open Liberty through a context listener that throws, see {@link #onStartup}). It registers
 * nothing and does nothing for applications without the filter. Found through {@code
 * META-INF/services/jakarta.servlet.ServletContainerInitializer}.
 */
public final class RateLimitInitializer implements ServletContainerInitializer {

  private static final Logger LOG = Logger.getLogger(RateLimitInitializer.class.getName());

  @Override
  public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
    try {
      check(context);
    } catch (ServletException e) {
      // Open Liberty only logs what an initializer throws, and starts the application without its
      // limits; a context listener that throws stops the start there (never reached elsewhere).
      context.addListener(new FailStart(e));
      throw e;
    }
  }

  private static void check(ServletContext context) throws ServletException {
    ClassLoader loader = context.getClassLoader();
    registerAdmin(context, loader);
    for (FilterRegistration registration : context.getFilterRegistrations().values()) {
      Class<?> type = rateLimitFilterClass(registration.getClassName(), loader);
      if (type != null) {
        String name = registration.getName();
        LimiterConfig config =
            RateLimitFilter.validate(name, registration.getInitParameters(), loader);
        if (config != null && Boolean.FALSE.equals(declaredAsyncSupported(context, name, type))) {
          requireNoShaping(name, config);
        }
      }
    }
  }

  /** Fails the application's start with the initializer's failure. */
  private record FailStart(ServletException failure) implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
      throw new IllegalStateException(failure.getMessage(), failure);
    }
  }

  /**
   * Serves the admin API at {@code limiter.admin.path} if {@code limiter.admin.enabled}; a bad
   * admin setting fails the deployment.
   */
  private static void registerAdmin(ServletContext context, ClassLoader loader)
      throws ServletException {
    AdminSettings settings;
    try {
      settings = AdminSettings.from(RateLimitFilter.lookup(Map.of(), loader));
    } catch (ConfigException e) {
      throw new ServletException(
          StartLog.failed(
              LOG,
              "the Limiter admin API",
              e.problems().stream().map(ConfigException::getMessage).toList()),
          e);
    }
    if (settings.enabled()) {
      AdminServlet servlet = new AdminServlet(settings, () -> ContextRuntime.find(context));
      ServletRegistration.Dynamic admin = context.addServlet("limiter-admin", servlet);
      admin.addMapping(settings.path() + "/*");
      context.setAttribute(AdminApi.ATTRIBUTE, servlet.api());
    }
  }

  /**
   * A filter that is not async-supported cannot hold a request without a thread, so its shaping
   * policies would let every request pass at once: fail instead, naming the filter and the policy.
   */
  private static void requireNoShaping(String filter, LimiterConfig config)
      throws ServletException {
    Set<String> routed = HttpRoutes.routedPolicies(config);
    List<String> shaping =
        config.policies().values().stream()
            .filter(p -> routed.contains(p.name()) && !p.shaping().nodelay() && !p.dryRun())
            .map(PolicyConfig::name)
            .toList();
    if (!shaping.isEmpty()) {
      String policy = shaping.get(0);
      throw new ServletException(
          StartLog.failed(
              LOG,
              RateLimitFilter.describe(filter),
              List.of(
                  "RateLimitFilter '"
                      + filter
                      + "' is not async-supported, but its policy '"
                      + policy
                      + "' shapes (leaky-bucket without nodelay): a held request waits asynchronously. Declare the filter"
                      + " async-supported (<async-supported>true</async-supported> in web.xml, or @WebFilter(asyncSupported ="
                      + " true)) with the REQUEST and ASYNC dispatchers, or set "
                      + LimiterConfig.POLICY_PREFIX
                      + policy
                      + ".nodelay=true; shaping policies: "
                      + shaping)));
    }
  }

  /**
   * Whether the filter called {@code name} is declared async-supported: by its {@code <filter>} in
   * web.xml, or else by the {@code @WebFilter} of its class. Null when neither says (a filter added
   * by code or by a web fragment): the filter then warns at run time instead.
   */
  static Boolean declaredAsyncSupported(ServletContext context, String name, Class<?> type) {
    Element filter = webXmlFilter(context, name);
    if (filter != null) {
      String async = childText(filter, "async-supported");
      if (async != null) {
        return Boolean.parseBoolean(async);
      }
      if (childText(filter, "filter-class") != null) {
        return false; // declared there in full: the schema's default
      }
    }
    WebFilter annotation = type.getAnnotation(WebFilter.class);
    if (annotation != null
        && name.equals(
            annotation.filterName().isEmpty() ? type.getName() : annotation.filterName())) {
      return annotation.asyncSupported();
    }
    return null;
  }

  /**
   * The {@code <filter>} named {@code name} in WEB-INF/web.xml; null if there is none, or no
   * readable web.xml.
   */
  private static Element webXmlFilter(ServletContext context, String name) {
    try (InputStream in = context.getResourceAsStream("/WEB-INF/web.xml")) {
      if (in == null) {
        return null;
      }
      DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
      factory.setNamespaceAware(true);
      factory.setExpandEntityReferences(false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      NodeList filters =
          factory.newDocumentBuilder().parse(in).getElementsByTagNameNS("*", "filter");
      for (int i = 0; i < filters.getLength(); i++) {
        Element filter = (Element) filters.item(i);
        if (name.equals(childText(filter, "filter-name"))) {
          return filter;
        }
      }
      return null;
    } catch (Exception e) {
      return null; // the container parsed it already and reports what is wrong with it
    }
  }

  private static String childText(Element parent, String localName) {
    for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element element && localName.equals(element.getLocalName())) {
        return element.getTextContent().trim();
      }
    }
    return null;
  }

  /** The class of a RateLimitFilter registration; null for other filters. */
  private static Class<?> rateLimitFilterClass(String className, ClassLoader loader) {
    if (className == null) {
      return null;
    }
    try {
      Class<?> type = Class.forName(className, false, loader);
      return RateLimitFilter.class.isAssignableFrom(type) ? type : null;
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // the container reports a filter class it cannot load
    }
  }
}
