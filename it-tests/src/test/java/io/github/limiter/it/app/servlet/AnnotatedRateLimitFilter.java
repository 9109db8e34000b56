package io.github.limiter.it.app.servlet;

import io.github.limiter.servlet.RateLimitFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.annotation.WebFilter;

/** The filter registered by annotation: a subclass, configured from MicroProfile Config alone. */
@WebFilter(
    filterName = "annotated-limiter",
    urlPatterns = "/*",
    asyncSupported = true,
    dispatcherTypes = {DispatcherType.REQUEST, DispatcherType.ASYNC})
public class AnnotatedRateLimitFilter extends RateLimitFilter {}
