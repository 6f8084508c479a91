package dev.agentdesk.app.serve.mcp;

import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.mcp.PortException;

/**
 * The API's error codes as MCP tool errors: one table for the in-process ports (a
 * ServeException's reason) and the REST ports (the code of the JSON error body).
 */
public final class PortErrors {
  private PortErrors() {}

  /** The tool error for an API error {@code code} ({@code not_found}, {@code bad_request}, …). */
  public static PortException fromApi(String code, String message) {
    PortException.Reason reason = switch (code == null ? "" : code) {
      case "not_found" -> PortException.Reason.NOT_FOUND;
      case "bad_request", "invalid_json", "payload_too_large", "unsupported_media_type" ->
          PortException.Reason.BAD_ARGUMENTS;
      case "conflict", "method_not_allowed" -> PortException.Reason.CONFLICT;
      default -> PortException.Reason.UNAVAILABLE;
    };
    return new PortException(reason, message);
  }

  static PortException from(ServeException e) {
    PortException p = fromApi(e.reason().code(), e.getMessage());
    p.initCause(e);
    return p;
  }
}
