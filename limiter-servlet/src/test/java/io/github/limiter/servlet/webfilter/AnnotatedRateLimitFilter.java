package io.github.limiter.servlet.webfilter;

import io.github.limiter.servlet.RateLimitFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.annotation.WebInitParam;

/** The @WebFilter registration style: a subclass that carries its mapping and configuration. */
@WebFilter(
    filterName = "limiter",
    urlPatterns = "/*",
    asyncSupported = true,
    dispatcherTypes = {DispatcherType.REQUEST, DispatcherType.ASYNC},
    initParams = {
      @WebInitParam(name = "limiter.policy.api.algorithm", value = "token-bucket"),
      @WebInitParam(name = "limiter.policy.api.limits", value = "2/1m"),
      @WebInitParam(name = "limiter.route.api.pattern", value = "/api/*"),
      @WebInitParam(name = "limiter.route.api.policies", value = "api")
    })
public class AnnotatedRateLimitFilter extends RateLimitFilter {}
