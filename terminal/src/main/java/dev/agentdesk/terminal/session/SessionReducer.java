package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import java.util.ArrayList;
import java.util.List;

/**
 * The authoritative fold of {@link SessionSignal}s into {@link SessionState}. Pure: no clock, no
 * I/O, so every transition is testable without a PTY. The rules that matter most:
 *
 * <ul>
 *   <li>User input starts a new turn: it clears any question (confident or not) and any choice
 *       menu; question and retraction signals stamped with an older turn are ignored.
 *   <li>A confident question is sticky: only user input, hook busy, or exit clear it. A
 *       low-confidence one is also cleared by a retraction.
 *   <li>A choice menu is cleared on resolution (input), disappearance, replacement and exit, and
 *       each clearing is reported so consumers drop stale menus.
 *   <li>Hook busy wins over output timing; idle from timing is not published while sub-tasks run.
 *   <li>A rate limit is also the last API error; one that named no end lasts until user input.
 * </ul>
 */
final class SessionReducer {

  /** The new state and whether a choice menu was cleared by this signal. */
  record Reduction(SessionState state, boolean choiceCleared) {}

  private SessionReducer() {}

  static Reduction reduce(SessionState s, SessionSignal signal) {
    Builder b = new Builder(s);
    boolean choiceCleared = false;
    if (signal instanceof SessionSignal.UserInput in) {
      b.turnEpoch = Math.max(s.turnEpoch(), in.epoch());
      choiceCleared = b.choicePrompt != null;
      b.clearAwaiting();
      b.suggestions = List.of();
      if (s.rateLimitedUntilMs() == null) {
        b.rateLimitText = null; // a limit without an end lasts until the user resends
      }
    } else if (signal instanceof SessionSignal.Shell sh) {
      if (!sh.busy() && s.activeSubtasks() > 0) {
        return new Reduction(s, false); // sub-agents still running: not finished yet
      }
      b.busy = sh.busy();
    } else if (signal instanceof SessionSignal.QuestionAsked q) {
      if (q.epoch() < s.turnEpoch() || s.exited()) {
        return new Reduction(s, false);
      }
      if (!(s.awaitingInput() && s.questionConfident() && !q.confident())) {
        b.awaitingInput = true;
        b.question = q.text();
        b.questionConfident = q.confident();
      }
    } else if (signal instanceof SessionSignal.QuestionRetracted r) {
      if (r.epoch() < s.turnEpoch() || !s.awaitingInput() || s.questionConfident() || s.choicePrompt() != null) {
        return new Reduction(s, false);
      }
      b.clearAwaiting();
    } else if (signal instanceof SessionSignal.ChoiceShown c) {
      if (s.exited()) {
        return new Reduction(s, false);
      }
      // The same menu drawn again with more detail (footer keys arrive in a later chunk) is an
      // update; a different title or different options is a replacement.
      choiceCleared = s.choicePrompt() != null && !s.choicePrompt().sameMenu(c.choice());
      b.choicePrompt = c.choice();
      b.awaitingInput = true;
      if (b.question == null) {
        b.question = c.choice().title();
      }
    } else if (signal instanceof SessionSignal.ChoiceGone) {
      if (s.choicePrompt() == null) {
        return new Reduction(s, false);
      }
      choiceCleared = true;
      b.choicePrompt = null;
      if (!s.questionConfident() || s.choicePrompt().title().equals(s.question())) {
        b.clearAwaiting();
      }
    } else if (signal instanceof SessionSignal.HookState h) {
      b.hookInstrumented = true;
      switch (h.state()) {
        case BUSY -> {
          b.busy = true;
          choiceCleared = b.choicePrompt != null;
          b.clearAwaiting();
        }
        case IDLE -> b.busy = false;
        case AWAITING -> {
          if (h.epoch() >= s.turnEpoch()) {
            b.awaitingInput = true;
            b.questionConfident = true;
            b.question = h.question() != null ? h.question() : s.question();
          }
        }
      }
    } else if (signal instanceof SessionSignal.HookBlocked) {
      b.busy = true;
      b.suggestions = List.of();
    } else if (signal instanceof SessionSignal.RateLimited r) {
      b.rateLimitedUntilMs = r.untilMs();
      b.rateLimitText = r.text();
      b.lastApiError = r.text();
      b.lastApiErrorKind = "rate_limit";
    } else if (signal instanceof SessionSignal.Usage u) {
      b.usagePercentage = Math.max(0, Math.min(100, u.percentage()));
      b.usageLimitType = u.limitType();
      b.usageExhausted = u.percentage() >= 100 && s.usageExhausted();
    } else if (signal instanceof SessionSignal.UsageExhausted e) {
      b.usageExhausted = true;
      b.usageResetText = e.resetText();
      b.usagePercentage = 100;
    } else if (signal instanceof SessionSignal.Subtasks t) {
      b.activeSubtasks = Math.max(0, t.count());
    } else if (signal instanceof SessionSignal.Intent i) {
      b.intent = i.text();
      b.intentTitle = i.title();
    } else if (signal instanceof SessionSignal.Suggestions g) {
      b.suggestions = g.items();
    } else if (signal instanceof SessionSignal.PullRequest p) {
      if (!s.prUrls().contains(p.url())) {
        List<String> urls = new ArrayList<>(s.prUrls());
        urls.add(p.url());
        b.prUrls = urls;
      }
    } else if (signal instanceof SessionSignal.ApiError e) {
      b.lastApiError = e.text();
      b.lastApiErrorKind = e.kind();
    } else if (signal instanceof SessionSignal.SessionIdReset r) {
      b.sessionId = r.newId();
    } else if (signal instanceof SessionSignal.Tick t) {
      if (s.rateLimitedUntilMs() != null && t.nowMs() >= s.rateLimitedUntilMs()) {
        b.rateLimitedUntilMs = null;
        b.rateLimitText = null;
      }
    } else if (signal instanceof SessionSignal.Exited x) {
      choiceCleared = s.choicePrompt() != null;
      b.clearAwaiting();
      b.busy = false;
      b.activeSubtasks = 0;
      b.exited = true;
      b.exitCode = x.exitCode();
    }
    return new Reduction(b.build(), choiceCleared);
  }

  /** Mutable copy used only inside one reduction. */
  private static final class Builder {
    String sessionId;
    final Agent agent;
    boolean busy;
    boolean awaitingInput;
    String question;
    boolean questionConfident;
    PendingChoice choicePrompt;
    Long rateLimitedUntilMs;
    String rateLimitText;
    Integer usagePercentage;
    String usageLimitType;
    boolean usageExhausted;
    String usageResetText;
    int activeSubtasks;
    String intent;
    String intentTitle;
    List<String> suggestions;
    List<String> prUrls;
    String lastApiError;
    String lastApiErrorKind;
    boolean hookInstrumented;
    long turnEpoch;
    boolean exited;
    Integer exitCode;

    Builder(SessionState s) {
      sessionId = s.sessionId();
      agent = s.agent();
      busy = s.busy();
      awaitingInput = s.awaitingInput();
      question = s.question();
      questionConfident = s.questionConfident();
      choicePrompt = s.choicePrompt();
      rateLimitedUntilMs = s.rateLimitedUntilMs();
      rateLimitText = s.rateLimitText();
      usagePercentage = s.usagePercentage();
      usageLimitType = s.usageLimitType();
      usageExhausted = s.usageExhausted();
      usageResetText = s.usageResetText();
      activeSubtasks = s.activeSubtasks();
      intent = s.intent();
      intentTitle = s.intentTitle();
      suggestions = s.suggestions();
      prUrls = s.prUrls();
      lastApiError = s.lastApiError();
      lastApiErrorKind = s.lastApiErrorKind();
      hookInstrumented = s.hookInstrumented();
      turnEpoch = s.turnEpoch();
      exited = s.exited();
      exitCode = s.exitCode();
    }

    void clearAwaiting() {
      awaitingInput = false;
      question = null;
      questionConfident = false;
      choicePrompt = null;
    }

    SessionState build() {
      return new SessionState(sessionId, agent, busy, awaitingInput, question, questionConfident, choicePrompt,
          rateLimitedUntilMs, rateLimitText, usagePercentage, usageLimitType, usageExhausted, usageResetText,
          activeSubtasks, intent, intentTitle, suggestions, prUrls, lastApiError, lastApiErrorKind,
          hookInstrumented, turnEpoch, exited, exitCode);
    }
  }
}
