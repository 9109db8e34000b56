/**
 * A real headless Chromium for the tests that look at a page as a browser builds it: finding the
 * browser, one-shot renders (the DOM, a screenshot), and a page driven through the DevTools
 * protocol.
 */
package io.github.limiter.tck.browser;
