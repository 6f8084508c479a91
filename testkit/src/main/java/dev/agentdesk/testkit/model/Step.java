package dev.agentdesk.testkit.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the server answers at one step of a scripted conversation, by attempt: the first request
 * of the step gets {@code attempts.get(0)}, a retry of it the next one, and so on; the last one
 * answers every later attempt. {@code Step.retried(failure, 2, reply)} fails twice, then succeeds.
 */
public record Step(List<Reply> attempts) {
  public Step {
    if (attempts.isEmpty()) {
      throw new IllegalArgumentException("a step needs at least one reply");
    }
    attempts = List.copyOf(attempts);
  }

  public static Step of(Reply reply) {
    return new Step(List.of(reply));
  }

  /** {@code failure} for the first {@code times} attempts, then {@code then}. */
  public static Step retried(Reply.Failure failure, int times, Reply then) {
    List<Reply> l = new ArrayList<>(Collections.nCopies(times, failure));
    l.add(then);
    return new Step(l);
  }

  Reply attempt(int n) {
    return attempts.get(Math.min(n, attempts.size() - 1));
  }
}
