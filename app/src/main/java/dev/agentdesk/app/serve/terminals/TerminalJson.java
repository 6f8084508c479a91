package dev.agentdesk.app.serve.terminals;

import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.terminal.session.SessionState;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The API's view of a terminal and its state (see the OpenAPI document's Terminal schema). */
public record TerminalJson(String id, String title, List<String> argv, String agent, String cwd, int cols, int rows,
    Long pid, String created_at, boolean exited, Integer exit_code, State state, Capture capture, List<String> preview) {

  public record State(String shell, boolean awaiting_input, Question question, Choice choice_prompt,
      String rate_limited_until, String rate_limit_text, Usage usage, Exhausted usage_exhausted, List<Pr> pr_urls,
      String intent, List<String> suggestions, int active_subtasks, ApiError last_api_error, boolean exited,
      Integer exit_code) {}

  public record Question(String text, boolean confident) {}

  public record Choice(String title, List<Option> options, String dismiss_key, String amend_key, boolean numbered) {}

  public record Option(int index, String label, boolean destructive, String description, boolean highlighted) {}

  public record Usage(int percentage, String limit_type) {}

  public record Exhausted(String reset_time) {}

  public record Pr(String url, Integer number, String platform) {}

  public record ApiError(String text, String kind) {}

  public record Capture(boolean active, long bytes, String path) {}

  private static final Pattern PR_NUMBER = Pattern.compile("/(?:pull|pulls|merge_requests|pullrequest)/(\\d+)");

  /**
   * The state as JSON; session-clock times become wall-clock instants.
   *
   * @param sessionNowMs the session clock now, to turn {@code rateLimitedUntilMs} into an instant
   */
  static State state(SessionState s, long sessionNowMs) {
    String until = null;
    boolean limited = s.rateLimitedAt(sessionNowMs);
    if (limited && s.rateLimitedUntilMs() != null) {
      until = Instant.now().plusMillis(s.rateLimitedUntilMs() - sessionNowMs).toString();
    }
    Choice choice = null;
    PendingChoice pc = s.choicePrompt();
    if (pc != null) {
      List<Option> opts = new ArrayList<>();
      for (PendingChoice.Option o : pc.options()) {
        opts.add(new Option(o.index(), o.label(), o.destructive(), o.description(), o.highlighted()));
      }
      choice = new Choice(pc.title(), opts, pc.dismissKey(), pc.amendKey(), pc.numbered());
    }
    List<Pr> prs = new ArrayList<>();
    for (String url : s.prUrls()) {
      prs.add(pr(url));
    }
    return new State(s.busy() ? "busy" : "idle", s.awaitingInput(),
        s.question() == null ? null : new Question(s.question(), s.questionConfident()), choice, until,
        limited ? s.rateLimitText() : null,
        s.usagePercentage() == null ? null : new Usage(s.usagePercentage(), s.usageLimitType()),
        s.usageExhausted() ? new Exhausted(s.usageResetText()) : null, prs, s.intent(), s.suggestions(),
        s.activeSubtasks(), s.lastApiError() == null ? null : new ApiError(s.lastApiError(), s.lastApiErrorKind()),
        s.exited(), s.exitCode());
  }

  static Pr pr(String url) {
    Matcher m = PR_NUMBER.matcher(url);
    Integer number = m.find() ? Integer.valueOf(m.group(1)) : null;
    String host = "";
    try {
      host = String.valueOf(URI.create(url).getHost()).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      // Not a URI we can read: the platform stays unnamed.
    }
    String platform = host.contains("github") ? "github" : host.contains("gitlab") ? "gitlab"
        : host.contains("bitbucket") ? "bitbucket" : host.contains("azure") || host.contains("visualstudio") ? "azure"
        : "other";
    return new Pr(url, number, platform);
  }
}
