package dev.agentdesk.app.serve;

/**
 * The one exception root of the server. Every failure a client can cause or observe is one of
 * these, and its {@link Reason} decides the HTTP status and the machine-readable {@code code} of
 * the JSON error body. Anything else that escapes a handler is a bug and becomes a 500 whose body
 * says only that (the stack trace goes to the server log, never to the client).
 */
public final class ServeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a request failed; each reason has one status and one stable code. */
  public enum Reason {
    BAD_REQUEST(400, "bad_request"),
    INVALID_JSON(400, "invalid_json"),
    UNAUTHORIZED(401, "unauthorized"),
    FORBIDDEN(403, "forbidden"),
    NOT_FOUND(404, "not_found"),
    METHOD_NOT_ALLOWED(405, "method_not_allowed"),
    CONFLICT(409, "conflict"),
    PAYLOAD_TOO_LARGE(413, "payload_too_large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type"),
    /** What the request names exists but cannot be used as it is (a damaged recording). */
    UNPROCESSABLE(422, "unprocessable"),
    INTERNAL(500, "internal"),
    UPSTREAM_FAILED(502, "upstream_failed"),
    UNAVAILABLE(503, "unavailable");

    private final int status;
    private final String code;

    Reason(int status, String code) {
      this.status = status;
      this.code = code;
    }

    public int status() {
      return status;
    }

    public String code() {
      return code;
    }
  }

  private final Reason reason;
  private final String detailCode;
  private final java.util.List<String> paths;

  public ServeException(Reason reason, String message) {
    this(reason, message, null, java.util.List.of(), null);
  }

  public ServeException(Reason reason, String message, Throwable cause) {
    this(reason, message, null, java.util.List.of(), cause);
  }

  /**
   * @param detailCode the finer reason a module gave (e.g. {@code merge_conflict}), or null
   * @param paths the files the error is about (conflicting, uncommitted), or empty
   */
  public ServeException(Reason reason, String message, String detailCode, java.util.List<String> paths,
      Throwable cause) {
    super(message, cause);
    this.reason = reason;
    this.detailCode = detailCode;
    this.paths = java.util.List.copyOf(paths);
  }

  public Reason reason() {
    return reason;
  }

  /** The finer reason a module gave, or null. */
  public String detailCode() {
    return detailCode;
  }

  public java.util.List<String> paths() {
    return paths;
  }

  public static ServeException badRequest(String message) {
    return new ServeException(Reason.BAD_REQUEST, message);
  }

  public static ServeException notFound(String message) {
    return new ServeException(Reason.NOT_FOUND, message);
  }
}
