package dev.agentdesk.app.serve;

import io.javalin.config.RoutesConfig;

/**
 * One part of the API (health, history, terminals, sandboxes): it adds its routes and releases
 * what it holds when the server stops.
 */
public interface ApiArea extends AutoCloseable {
  void routes(RoutesConfig routes);

  /** Called once the server listens; background work (imports, watchers) starts here. */
  default void started() {}

  @Override
  default void close() {}
}
