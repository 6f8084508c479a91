package dev.agentdesk.app.runtime;

/** {@code HOST:PORT} as given to {@code --listen}. */
public record ListenAddress(String host, int port) {
  public static ListenAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("expected HOST:PORT, e.g. 127.0.0.1:8765, got '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port must be a number 0-65535, got '" + text.substring(colon + 1) + "'");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535, got " + port);
    }
    return new ListenAddress(host, port);
  }
}
