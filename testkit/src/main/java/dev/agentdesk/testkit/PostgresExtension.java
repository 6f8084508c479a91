package dev.agentdesk.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test methods (and constructors) a {@link PostgresServer} parameter: one private cluster per
 * test class, started on first use and stopped and deleted after the class. Tests that need a clean
 * database call {@link PostgresServer#createDatabase()}.
 *
 * <p>There is no skip: without the server binaries the test fails with a message that says how to
 * install them (CI runs every test, so a missing PostgreSQL must be loud).
 */
public final class PostgresExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PostgresExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == PostgresServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    ExtensionContext classContext = extensionContext;
    while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
      classContext = classContext.getParent().get();
    }
    // The class context's store closes the server (it is AutoCloseable) when the class is done.
    return classContext.getStore(NS).getOrComputeIfAbsent(PostgresServer.class, k -> {
      try {
        return PostgresServer.start();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting PostgreSQL", e);
      }
    }, PostgresServer.class);
  }
}
