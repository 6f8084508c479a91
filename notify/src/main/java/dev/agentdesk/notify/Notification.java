package dev.agentdesk.notify;

import java.time.Instant;
import java.util.Objects;

/**
 * One notification: the {@code {event, session, agent, title, text, url, at}} of the webhook JSON.
 *
 * @param event what happened
 * @param session the terminal or agent session id
 * @param agent the agent's CLI name ({@code claude}, …), or null for a plain terminal
 * @param title one line naming the session and what happened, e.g. "claude · ui needs you"
 * @param text the question, the limit message, the error, the PR URL, …
 * @param url the dashboard page of the session (null when the server's address is unknown)
 * @param at when it happened
 */
public record Notification(EventKind event, String session, String agent, String title, String text, String url,
    Instant at) {
  public Notification {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(at, "at");
    text = text == null ? "" : text;
  }
}
