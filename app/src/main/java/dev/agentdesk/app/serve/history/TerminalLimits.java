package dev.agentdesk.app.serve.history;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.parser.ResetTimes;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.UsageLimit;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns a supervised terminal's usage-limit, usage-exhausted and rate-limit events into usage
 * windows of the terminal's agent, for the history's latest known limits. Runs on the session's
 * threads, so it only builds the value and hands it to {@code sink}, which must not block (ADR 0032).
 *
 * <p>Windows: a usage-limit event names its window ({@code session} or {@code weekly}, Claude's
 * words) and how full; out of usage is that window (the last one named, else {@code usage}) at
 * 100 % with the reset its text gives; a rate limit is the window {@code rate limit}, resetting
 * when its text or retry delay says.
 */
final class TerminalLimits implements SessionListener {
  private static final int PENDING = 8;
  private final Consumer<UsageLimit> sink;
  private final Clock clock;
  /** The terminal's provider once a state named its agent; null before, or for a program that is none. */
  private String provider;
  private boolean known;
  /** Windows seen before the agent was known (at most {@link #PENDING}). */
  private final List<UsageLimit> pending = new ArrayList<>();
  private String lastWindow = "usage";

  TerminalLimits(Consumer<UsageLimit> sink, Clock clock) {
    this.sink = sink;
    this.clock = clock;
  }

  // Events of one session arrive in order, one at a time (SessionListener's contract): no lock here.
  @Override
  public void onEvent(SessionEvent event) {
    if (event instanceof SessionEvent.StateChanged sc && !known) {
      known = true;
      provider = providerOf(sc.state().agent());
      if (provider != null) {
        pending.forEach(l -> sink.accept(withProvider(l, provider)));
      }
      pending.clear();
    } else if (event instanceof SessionEvent.Parsed p) {
      UsageLimit l = limit(p.event());
      if (l == null) {
        return;
      }
      if (known) {
        if (provider != null) {
          sink.accept(withProvider(l, provider));
        }
      } else if (pending.size() < PENDING) {
        pending.add(l);
      }
    }
  }

  private UsageLimit limit(ParsedEvent e) {
    Instant now = clock.instant();
    if (e instanceof ParsedEvent.UsageLimit u) {
      lastWindow = u.limitType().wire();
      return terminal(lastWindow, (double) u.percentage(), null, now);
    } else if (e instanceof ParsedEvent.UsageExhausted x) {
      return terminal(lastWindow, 100.0, reset(x.resetTime(), now), now);
    } else if (e instanceof ParsedEvent.RateLimit r) {
      Instant at = r.retryAfterMs() != null ? now.plusMillis(r.retryAfterMs()) : reset(r.matchedText(), now);
      return terminal("rate limit", null, at, now);
    }
    return null;
  }

  private Instant reset(String text, Instant now) {
    return ResetTimes.resetAt(text, now.atZone(clock.getZone())).orElse(null);
  }

  private static UsageLimit terminal(String window, Double used, Instant resets, Instant now) {
    return new UsageLimit("?", window, used, null, resets, now, null, UsageLimit.Origin.TERMINAL);
  }

  private static UsageLimit withProvider(UsageLimit l, String provider) {
    return new UsageLimit(provider, l.window(), l.usedPercent(), l.windowMinutes(), l.resetsAt(), l.observedAt(),
        l.sessionId(), l.origin());
  }

  /** The history provider of the same name as the terminal's agent, or null (a shell, Goose). */
  static String providerOf(Agent agent) {
    try {
      return Provider.parse(agent.cliName()).id();
    } catch (IllegalArgumentException notAHistoryProvider) {
      return null;
    }
  }
}
