package dev.agentdesk.app.serve;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The JSON body of every error response: {@code {"code": "...", "message": "..."}}, plus, where a
 * module gave them, its finer {@code reason} (e.g. {@code merge_conflict}) and the {@code paths}
 * the error is about.
 */
public record ErrorBody(String code, String message,
    @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> paths) {

  public ErrorBody(String code, String message) {
    this(code, message, null, List.of());
  }

  static ErrorBody of(ServeException e) {
    return new ErrorBody(e.reason().code(), e.getMessage(), e.detailCode(), e.paths());
  }
}
