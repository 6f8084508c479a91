package dev.agentdesk.testkit.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A scripted conversation: it answers requests whose latest prompt (the last user message with
 * text of its own, not only tool results) contains {@code marker}; the step is the number of
 * assistant messages after that prompt, so step 0 answers the prompt, step 1 the tool result of
 * step 0's call, and so on. Past the last step the server answers {@link ModelServer#DONE}.
 *
 * <p>Stateless by design, apart from the per-step attempt count: the agent under test may resend a
 * request (a retry, a resumed session) and gets the same step again.
 */
public record Script(String marker, List<Step> steps) {
  public Script {
    Objects.requireNonNull(marker, "marker");
    if (marker.isBlank()) {
      throw new IllegalArgumentException("blank marker");
    }
    steps = List.copyOf(steps);
  }

  /** One reply per step, each on its first attempt. */
  public static Script of(String marker, Reply... replies) {
    return new Script(marker, Arrays.stream(replies).map(Step::of).toList());
  }

  public static Script ofSteps(String marker, Step... steps) {
    return new Script(marker, List.of(steps));
  }
}
