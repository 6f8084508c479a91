package dev.agentdesk.terminal.parser;

import java.util.Locale;

/**
 * Which OSC 777 notification bodies mean the agent waits for the user, and how confidently.
 *
 * <table>
 *   <caption>Accepted bodies</caption>
 *   <tr><th>Body contains</th><th>Confident</th><th>Why</th></tr>
 *   <tr><td>needs your permission, approval required</td><td>yes</td><td>one reading; cleared by the answer</td></tr>
 *   <tr><td>is waiting for your input</td><td>no</td><td>also sent on the idle timer after a finished
 *       turn, so it must stay retractable</td></tr>
 * </table>
 *
 * Anything else (e.g. "Claude Code needs your attention") proves nothing and is ignored.
 */
final class NotificationQuestions {
  private NotificationQuestions() {}

  static ParsedEvent.Question classify(String body, long turnEpoch) {
    String b = body.toLowerCase(Locale.ROOT);
    if (b.contains("needs your permission") || b.contains("approval required")) {
      return new ParsedEvent.Question(body, true, turnEpoch);
    }
    if (b.contains("is waiting for your input")) {
      return new ParsedEvent.Question(body, false, turnEpoch);
    }
    return null;
  }
}
