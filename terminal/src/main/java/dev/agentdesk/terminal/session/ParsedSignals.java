package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.ParsedEvent;
import java.util.ArrayList;
import java.util.List;

/** Maps the parser's events to the reducer's signals; events that do not change state map to null. */
final class ParsedSignals {
  private ParsedSignals() {}

  static SessionSignal toSignal(ParsedEvent e, long atMs) {
    if (e instanceof ParsedEvent.QuestionCleared q) {
      return new SessionSignal.QuestionRetracted(q.turnEpoch());
    } else if (e instanceof ParsedEvent.ChoicePrompt c) {
      List<PendingChoice.Option> options = new ArrayList<>();
      for (ParsedEvent.ChoiceOption o : c.options()) {
        options.add(new PendingChoice.Option(o.index(), o.label(), o.destructive(), o.description(), o.highlighted()));
      }
      return new SessionSignal.ChoiceShown(new PendingChoice(c.title(), options, c.dismissKey(), c.amendKey(),
          c.numbered(), c.across()));
    } else if (e instanceof ParsedEvent.ChoiceCleared) {
      return new SessionSignal.ChoiceGone();
    } else if (e instanceof ParsedEvent.RateLimit r) {
      return new SessionSignal.RateLimited(r.retryAfterMs() == null ? null : atMs + r.retryAfterMs(), r.matchedText());
    } else if (e instanceof ParsedEvent.UsageLimit u) {
      return new SessionSignal.Usage(u.percentage(), u.limitType().wire());
    } else if (e instanceof ParsedEvent.UsageExhausted x) {
      return new SessionSignal.UsageExhausted(x.resetTime());
    } else if (e instanceof ParsedEvent.ActiveSubtasks t) {
      return new SessionSignal.Subtasks(t.count());
    } else if (e instanceof ParsedEvent.Intent i) {
      return new SessionSignal.Intent(i.text(), i.title());
    } else if (e instanceof ParsedEvent.Suggest s) {
      return new SessionSignal.Suggestions(s.items());
    } else if (e instanceof ParsedEvent.PrUrl p) {
      return new SessionSignal.PullRequest(p.url());
    } else if (e instanceof ParsedEvent.ApiError a) {
      return new SessionSignal.ApiError(a.matchedText(), a.errorKind().wire());
    }
    return null;
  }
}
