package dev.agentdesk.testkit;

import org.junit.jupiter.api.Assumptions;

/**
 * A precondition a test needs from its machine. On a developer's machine an unmet one skips the
 * test and says why; under {@code CI=true} (./run-tests and .ci/run set it) it fails, because the
 * project's own scripts install everything the suite needs and a skip there would prove nothing.
 */
public final class Required {
  private Required() {}

  public static void that(boolean met, String why) {
    if (met) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError("required under CI=true, missing: " + why);
    }
    Assumptions.assumeTrue(false, why);
  }
}
