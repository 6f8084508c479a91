package dev.agentdesk.app.serve;

/** The JSON body of every error response: {@code {"code": "...", "message": "..."}}. */
public record ErrorBody(String code, String message) {
  static ErrorBody of(ServeException e) {
    return new ErrorBody(e.reason().code(), e.getMessage());
  }
}
