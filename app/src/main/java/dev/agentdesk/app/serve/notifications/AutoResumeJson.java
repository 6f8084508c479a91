package dev.agentdesk.app.serve.notifications;

import dev.agentdesk.notify.AutoResume;

/**
 * A session's auto-resume as the API shows it.
 *
 * @param session the terminal or agent session id
 * @param enabled whether it resumes by itself after a limit
 * @param override its own switch, or null when it follows {@code serve --auto-resume} ({@code all})
 * @param all the server's {@code --auto-resume}
 * @param plan the latest limit seen while on, or null
 */
public record AutoResumeJson(String session, boolean enabled, Boolean override, boolean all, Plan plan) {
  /** The plan for one limit; the dashboard counts down to {@code resume_at}. */
  public record Plan(String state, String limit_text, String reset_at, String resume_at, String reason,
      String decided_at) {}

  static AutoResumeJson of(AutoResume r, String session) {
    Plan plan = r.plan(session).map(p -> new Plan(p.state().code(), p.limitText(),
        p.resetAt() == null ? null : p.resetAt().toString(), p.resumeAt() == null ? null : p.resumeAt().toString(),
        p.reason(), p.decidedAt() == null ? null : p.decidedAt().toString())).orElse(null);
    return new AutoResumeJson(session, r.enabled(session), r.override(session).orElse(null), r.all(), plan);
  }
}
