package dev.agentdesk.agents;

import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The waits every real-agent test class shares: for a request of a script at a step, and for a
 * session state. A wait that times out fails with what tells why: the agent's screen and the
 * requests the model server got.
 */
final class RealAgentWaits {
  /**
   * Long enough for a slow machine: OpenCode 1.18.33 took 18 s here from its start to its first model
   * request with a second instance on the other core (2026-12-03), and a retried 500 adds its backoff.
   * (a whole test of four waits took 58 s in that run). A passing wait ends on its event; only a failing
   * one waits this long.
   */
  static final Duration WAIT = Duration.ofSeconds(90);

  private RealAgentWaits() {}

  /** The agent's screen as text, or "(not running)". */
  static String screen(AgentSessions sessions, String id) {
    return sessions.terminal(id).map(t -> String.join("\n", t.screen().lines())).orElse("(not running)");
  }

  /** The {@code nth} request (1 = the first) of step {@code step} of script {@code marker}. */
  static ModelRequest awaitRequest(ModelServer model, AgentSessions sessions, String id, String marker, int step,
      int nth) throws InterruptedException {
    try {
      model.await(marker + " step " + step + (nth > 1 ? " #" + nth : ""), r -> model.requestsFor(marker).stream()
          .filter(q -> q.step() == step).count() >= nth, WAIT);
      return model.requestsFor(marker).stream().filter(q -> q.step() == step).skip(nth - 1).findFirst().orElseThrow();
    } catch (TimeoutException e) {
      throw new AssertionError(e.getMessage() + "\nscreen:\n" + screen(sessions, id) + "\nrequests: "
          + model.requests().stream().map(r -> r.method() + " " + r.path() + " tools=" + r.tools().size() + " script="
              + r.script() + " step=" + r.step()).toList());
    }
  }

  /** The session once {@code p} holds for it. */
  static AgentSession await(ModelServer model, AgentSessions sessions, String id, String what,
      Predicate<AgentSession> p) throws InterruptedException {
    AgentSession[] last = new AgentSession[1];
    try {
      Standins.await(what, WAIT, () -> p.test(last[0] = sessions.get(id)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last: " + last[0] + "\nscreen:\n" + screen(sessions, id)
          + "\nrequests: " + model.requests().size(), e);
    }
    return last[0];
  }
}
