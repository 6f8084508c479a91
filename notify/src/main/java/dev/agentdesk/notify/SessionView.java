package dev.agentdesk.notify;

import dev.agentdesk.agents.AgentSession;
import dev.agentdesk.agents.AgentStatus;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.SessionState;
import java.util.List;
import java.util.Objects;

/**
 * What notifications and auto-resume look at in one session, whether a plain terminal or an agent
 * session: built from the terminal's parsed {@link SessionState}, and for an agent from its
 * two-signal {@link AgentStatus} (which is the better judge of "awaiting input").
 *
 * @param session the terminal or agent session id
 * @param page the dashboard page of the session, e.g. {@code #/agents/ab12}
 * @param name what a person calls it: "claude · ui", "bash"
 * @param agent the agent's CLI name, or null for a plain terminal
 * @param awaitingInput the session waits for the user
 * @param question the question or menu title, or null
 * @param busy the agent is working
 * @param limitText the rate/usage-limit message while one is reported, else null
 * @param apiError the last API error text, or null
 * @param prUrls pull-request URLs seen so far
 * @param exited the process has exited
 * @param exitCode its status once exited
 * @param turn the input turn the state belongs to (user inputs so far)
 */
public record SessionView(String session, String page, String name, String agent, boolean awaitingInput,
    String question, boolean busy, String limitText, String apiError, List<String> prUrls, boolean exited,
    Integer exitCode, long turn) {

  public SessionView {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(name, "name");
    prUrls = List.copyOf(prUrls);
  }

  /** A supervised terminal, as the Terminals page shows it. */
  public static SessionView ofTerminal(String id, String title, SessionState s) {
    String agent = s.agent() == null || s.agent() == Agent.NONE ? null : s.agent().cliName();
    return new SessionView(id, "#/terminals/" + id, title, agent, s.awaitingInput(), question(s), s.busy(),
        limitText(s), s.lastApiError(), s.prUrls(), s.exited(), s.exitCode(), s.turnEpoch());
  }

  /** An agent session: awaiting input and busy from its status, the rest from its terminal. */
  public static SessionView ofAgent(AgentSession a) {
    AgentStatus st = a.status();
    SessionState t = a.terminal();
    String question = st.question() != null ? st.question() : st.choice() != null ? st.choice().title() : null;
    boolean exited = st.phase() == AgentStatus.Phase.ENDED || st.phase() == AgentStatus.Phase.WORKTREE_MISSING
        || (t != null && t.exited());
    return new SessionView(a.id(), "#/agents/" + a.id(), a.agent().cliName() + " · " + a.name(), a.agent().cliName(),
        st.awaitingInput(), question, st.phase() == AgentStatus.Phase.BUSY, t == null ? null : limitText(t),
        t == null ? null : t.lastApiError(), t == null ? List.of() : t.prUrls(), exited,
        t == null ? null : t.exitCode(), t == null ? 0 : t.turnEpoch());
  }

  private static String question(SessionState s) {
    if (s.choicePrompt() != null) {
      return s.choicePrompt().title();
    }
    return s.question();
  }

  /** The rate-limit message, or the usage-exhausted one with its reset text. */
  static String limitText(SessionState s) {
    if (s.rateLimitText() != null) {
      return s.rateLimitText();
    }
    if (s.usageExhausted()) {
      return s.usageResetText() == null ? "out of usage" : "out of usage · resets " + s.usageResetText();
    }
    return null;
  }

  public boolean limited() {
    return limitText != null;
  }
}
