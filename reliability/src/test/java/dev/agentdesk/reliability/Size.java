package dev.agentdesk.reliability;

/**
 * How big a reliability run is. CI runs the short size on every build; {@code -Preliability}
 * sets {@code agentdesk.reliability=full} and the same tests run at the sizes the promises name.
 */
final class Size {
  private Size() {}

  static boolean full() {
    return "full".equals(System.getProperty("agentdesk.reliability", "short"));
  }

  /** {@code shortSize} in a normal build, {@code fullSize} under -Preliability. */
  static long pick(long shortSize, long fullSize) {
    return full() ? fullSize : shortSize;
  }

  static int pick(int shortSize, int fullSize) {
    return full() ? fullSize : shortSize;
  }

  static String label() {
    return full() ? "full" : "short";
  }
}
