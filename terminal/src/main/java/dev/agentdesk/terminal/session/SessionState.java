package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import java.util.List;

/**
 * Everything the server and the web UI show about one supervised session, folded from its events
 * by the session reducer. Immutable; every change produces a new value. Nullable fields are null
 * when the session has not shown that thing (or it was cleared).
 *
 * @param sessionId the {@code AGENTDESK_SESSION} value the child was given (changes on a conflict reset)
 * @param agent the agent running in the session
 * @param busy true while output is flowing or a hook said busy; false once quiet for the idle window
 * @param awaitingInput the agent waits for the user (question, choice menu or hook {@code awaiting})
 * @param question the prompt text that set {@code awaitingInput}, or null
 * @param questionConfident true for protocol-backed questions, which only real user input clears
 * @param choicePrompt the choice menu on screen, or null
 * @param rateLimitedUntilMs session-clock time when a reported rate limit ends, or null (none
 *     reported, or a limit that named no end: it lasts until the user's next input)
 * @param rateLimitText the rate-limit message, or null
 * @param usagePercentage last reported usage of a limit (0–100), or null
 * @param usageLimitType "weekly" or "session", or null
 * @param usageExhausted the agent reported that no quota is left
 * @param usageResetText the raw reset text that came with exhaustion, or null
 * @param activeSubtasks sub-tasks the agent reports running; while above zero idle is not published
 * @param intent what the agent says it is working on, or null
 * @param intentTitle the short tab title from the intent line, or null
 * @param suggestions follow-up actions the agent proposed (empty when none)
 * @param prUrls pull-request URLs seen, oldest first, without duplicates
 * @param lastApiError the last API error text (a rate limit counts), or null
 * @param lastApiErrorKind "server", "auth", "unknown" or "rate_limit", or null
 * @param hookInstrumented the session has emitted an OSC 7770 {@code state=} marker
 * @param turnEpoch count of user inputs so far; events from an older turn are ignored
 * @param exited the process has exited
 * @param exitCode its exit status (128+signal when killed by a signal), or null while running
 */
public record SessionState(String sessionId, Agent agent, boolean busy, boolean awaitingInput, String question,
    boolean questionConfident, PendingChoice choicePrompt, Long rateLimitedUntilMs, String rateLimitText,
    Integer usagePercentage, String usageLimitType, boolean usageExhausted, String usageResetText,
    int activeSubtasks, String intent, String intentTitle, List<String> suggestions, List<String> prUrls,
    String lastApiError, String lastApiErrorKind, boolean hookInstrumented, long turnEpoch, boolean exited,
    Integer exitCode) {

  public SessionState {
    suggestions = List.copyOf(suggestions);
    prUrls = List.copyOf(prUrls);
  }

  /** The state of a session that has just started: idle, nothing seen. */
  public static SessionState initial(String sessionId, Agent agent) {
    return new SessionState(sessionId, agent, false, false, null, false, null, null, null, null, null, false, null,
        0, null, null, List.of(), List.of(), null, null, false, 0, false, null);
  }

  /**
   * True while a rate limit reported earlier has not yet run out at {@code nowMs}: until its end
   * when it named one, else until the user's next input (Claude's hard 429: "Resend your message
   * to try again").
   */
  public boolean rateLimitedAt(long nowMs) {
    return rateLimitText != null && (rateLimitedUntilMs == null || nowMs < rateLimitedUntilMs);
  }
}
