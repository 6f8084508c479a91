package dev.agentdesk.terminal.parser;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The single-line rules of one session and the state that keeps them from repeating themselves:
 * an error or rate limit once per input turn, a URL or plan path once per session, a status,
 * intent, usage or mode line when its text changes, a session conflict once per cooldown.
 */
final class LineEvents {
  /** Claude prints a session-id failure several times while exiting; the first one counts. */
  static final long SESSION_CONFLICT_COOLDOWN_MS = 3_000;
  private static final int MAX_REMEMBERED = 256;

  private final Agent agent;
  private final Set<String> seenThisTurn = new HashSet<>();
  /** Insertion-ordered so the oldest entry is dropped first once the bound is reached. */
  private final Set<String> seenThisSession = new LinkedHashSet<>();
  private String lastStatus;
  private long lastStatusAt = Long.MIN_VALUE / 2;
  private ParsedEvent.Intent lastIntent;
  private ParsedEvent.UsageLimit lastUsage;
  private ParsedEvent.UsageExhausted lastExhausted;
  private ParsedEvent.ActiveSubtasks lastSubtasks;
  private long lastConflictAt = Long.MIN_VALUE / 2;

  LineEvents(Agent agent) {
    this.agent = agent;
  }

  /** Errors and limits on screen are a redrawn past until the next input turn (a resumed session). */
  private boolean past;

  /** A new input turn: errors and rate limits may be reported again. */
  void newTurn() {
    seenThisTurn.clear();
    past = false;
  }

  /** Until the next input turn, rows are a conversation redrawn from earlier: no errors or limits from them. */
  void pastUntilNewTurn() {
    past = true;
  }

  /**
   * Codex's retry ({@link RetryRules#codexRetry}: "Reconnecting... 1/5: <why>"), once per attempt in a
   * turn however often its rows are redrawn; never from a redrawn past.
   */
  void codexRetry(String retry, List<ParsedEvent> out) {
    if (!past && seenThisTurn.add("codex-retry\u0000" + retry)) {
      out.add(RetryRules.matchCodex(retry));
    }
  }

  /** When a status line was last seen (on any content row). */
  long lastStatusAt() {
    return lastStatusAt;
  }

  /** Rules that apply to chrome rows too: mode lines and usage notices live in the bottom area. */
  void anyRow(String text, List<ParsedEvent> out) {
    if (text.indexOf('›') < 0 && text.indexOf('⏵') < 0 && text.indexOf("used") < 0 && text.indexOf("usage") < 0
        && !LineRules.mayBeBareCount(text)) {
      return;
    }
    ParsedEvent.ActiveSubtasks sub = LineRules.modeLine(text);
    if (sub != null) {
      boolean counted = sub.count() > 0;
      ParsedEvent.ActiveSubtasks ev = counted ? sub
          : lastSubtasks != null && lastSubtasks.count() > 0 ? new ParsedEvent.ActiveSubtasks(0, lastSubtasks.taskType()) : null;
      if (ev != null && !ev.equals(lastSubtasks)) {
        out.add(ev);
        lastSubtasks = ev;
      }
    }
    ParsedEvent.UsageLimit usage = LineRules.usageLimit(text);
    if (usage != null && !usage.equals(lastUsage)) {
      out.add(usage);
      lastUsage = usage;
    }
    ParsedEvent.UsageExhausted ex = LineRules.usageExhausted(text);
    if (ex != null && !ex.equals(lastExhausted)) {
      out.add(ex);
      lastExhausted = ex;
    }
  }

  /**
   * Rules for chat content rows; {@code fencedRow} marks a row inside a Markdown code fence.
   *
   * @param text the row (a soft-wrapped line as one)
   * @param message the whole message the row belongs to, for the rate-limit and API-error rules
   *     (Claude wraps its messages itself: {@link HangingIndent}); {@code text} for other agents
   * @return true when the row is a status line
   */
  boolean contentRow(String text, String message, boolean fencedRow, long now, List<ParsedEvent> out) {
    int keywords = fencedRow || past ? 0 : Prefilter.scan(message);
    boolean rateCandidate = (keywords & Prefilter.RATE) != 0;
    boolean errorCandidate = (keywords & Prefilter.ERROR) != 0;
    boolean guarded = (rateCandidate || errorCandidate) && LineGuards.isCodeOrDiff(message);
    ParsedEvent retry = guarded || keywords == 0 ? null : RetryRules.match(message);
    if (agent == Agent.OPENCODE && !fencedRow && !past) {
      ParsedEvent oc = RetryRules.matchOpenCode(message);
      if (oc != null) {
        // Every attempt redraws the row with a new count: the failure is reported once, by its message.
        String said = oc instanceof ParsedEvent.RateLimit r ? r.matchedText() : ((ParsedEvent.ApiError) oc).matchedText();
        if (seenThisTurn.add("opencode-retry\u0000" + said)) {
          out.add(oc);
        }
        rateCandidate = false;
        errorCandidate = false;
      }
    }
    if (retry != null) {
      // One event per attempt: the countdown ("retrying in 3s", "2s", …) is the same attempt.
      if (seenThisTurn.add("retry\u0000" + RetryRules.attemptKey(message))) {
        out.add(retry);
      }
      rateCandidate = false;
      errorCandidate = false;
    }
    if (rateCandidate && !guarded) {
      ParsedEvent.RateLimit r = RateLimitRules.match(message, agent);
      if (r != null && seenThisTurn.add("rate-limit\u0000" + r.matchedText())) {
        out.add(r);
      }
    }
    if (errorCandidate && !guarded) {
      ParsedEvent.ApiError e = ApiErrorRules.match(message, agent);
      if (e != null && seenThisTurn.add("api-error\u0000" + e.matchedText())) {
        out.add(e);
      }
    }
    boolean status = false;
    if (StatusLineRules.mayMatch(text)) {
      ParsedEvent.StatusLine s = StatusLineRules.match(text);
      if (s != null) {
        status = true;
        lastStatusAt = now;
        if (!s.fullLine().equals(lastStatus)) {
          out.add(s);
          lastStatus = s.fullLine();
        }
      }
    }
    for (ParsedEvent.PrUrl pr : LineRules.prUrls(text)) {
      if (remember("pr\u0000" + pr.url())) {
        out.add(pr);
      }
    }
    ParsedEvent.PlanFile plan = LineRules.planFile(text);
    if (plan != null && remember("plan\u0000" + plan.path())) {
      out.add(plan);
    }
    if (agent != Agent.NONE && text.contains("intent:")) {
      ParsedEvent.Intent intent = LineRules.intent(text);
      if (intent != null && !intent.equals(lastIntent)) {
        out.add(intent);
        lastIntent = intent;
      }
    }
    // Source code, a diff hunk or a fenced block quoting the message is the agent showing text.
    ParsedEvent.AgentSessionConflict conflict = fencedRow ? null : LineRules.sessionConflict(text);
    if (conflict != null && !LineGuards.isCodeOrDiff(text) && now - lastConflictAt >= SESSION_CONFLICT_COOLDOWN_MS) {
      out.add(conflict);
      lastConflictAt = now;
    }
    return status;
  }

  /** A status line was seen again (its text unchanged, e.g. after scrolling). */
  void statusSeen(long now) {
    lastStatusAt = now;
  }

  private boolean remember(String key) {
    if (seenThisSession.contains(key)) {
      return false;
    }
    if (seenThisSession.size() == MAX_REMEMBERED) {
      seenThisSession.remove(seenThisSession.iterator().next());
    }
    seenThisSession.add(key);
    return true;
  }

}
