package dev.agentdesk.testkit;

/**
 * A running X server a test may use.
 *
 * @param name the DISPLAY value, e.g. {@code ":42"}
 * @param width screen width in pixels
 * @param height screen height in pixels
 */
public record XDisplay(String name, int width, int height) {
  /** The display number, e.g. 42 for {@code ":42"}. */
  public int number() {
    return Integer.parseInt(name.substring(1));
  }
}
