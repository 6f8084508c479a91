package dev.agentdesk.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * Starts a real Xvfb on a free display before the test class and stops it after.
 *
 * <p>Test methods (and constructors) receive the running server as an {@link XDisplay}
 * parameter. Nothing global is changed: code under test gets the display name explicitly.
 * When Xvfb is not installed the class is skipped with a message saying how to install it,
 * except under {@code CI=true}, where a missing X server fails the run: a CI run that
 * silently skips every X test would prove nothing.
 */
public final class XvfbExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(XvfbExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    XvfbConfig config = context.getRequiredTestClass().getAnnotation(XvfbConfig.class);
    int width = config == null ? 1280 : config.width();
    int height = config == null ? 800 : config.height();
    if (XvfbServer.executable().isEmpty()) {
      String message = "Xvfb is not installed; run scripts/setup-system (it installs package xvfb)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(message + " — CI=true requires a real X server");
      }
      throw new TestAbortedException(message);
    }
    XvfbServer server = XvfbServer.start(width, height);
    context.getStore(NS).put(XvfbServer.class, server);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    XvfbServer server = context.getStore(NS).remove(XvfbServer.class, XvfbServer.class);
    if (server != null) {
      server.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == XDisplay.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    XvfbServer server = extensionContext.getRoot() == extensionContext
        ? null
        : findServer(extensionContext);
    if (server == null) {
      throw new ParameterResolutionException("no Xvfb running for " + extensionContext.getDisplayName());
    }
    return server.display();
  }

  /**
   * The display this extension started for {@code context}'s test class, for other extensions
   * (registered after it) that start something on it.
   */
  public static XDisplay display(ExtensionContext context) {
    XvfbServer server = findServer(context);
    if (server == null) {
      throw new IllegalStateException("no Xvfb running for " + context.getDisplayName()
          + ": put @ExtendWith(XvfbExtension.class) on the class");
    }
    return server.display();
  }

  private static XvfbServer findServer(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      XvfbServer s = c.getStore(NS).get(XvfbServer.class, XvfbServer.class);
      if (s != null) {
        return s;
      }
    }
    return null;
  }
}
