package dev.agentdesk.app.serve;

import io.javalin.config.RoutesConfig;
import jakarta.servlet.http.HttpServlet;

/**
 * An area served by a servlet of its own rather than Javalin routes (the MCP endpoint, whose SDK
 * transport is a servlet). The server mounts it at {@link #servletPath()} behind the same access
 * guard as every route.
 */
public interface ServletArea extends ApiArea {
  /** The exact path the servlet answers, e.g. {@code /mcp}. */
  String servletPath();

  HttpServlet servlet();

  @Override
  default void routes(RoutesConfig routes) {}
}
