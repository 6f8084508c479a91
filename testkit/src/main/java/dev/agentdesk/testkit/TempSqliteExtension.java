package dev.agentdesk.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Gives each test method parameter of type {@link TempSqlite} its own database, removed after the test. */
public final class TempSqliteExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TempSqliteExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == TempSqlite.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    TempSqlite db = TempSqlite.create();
    // The store closes AutoCloseable values when the test's context ends.
    extensionContext.getStore(NS).put(db.file().toString(), db);
    return db;
  }
}
