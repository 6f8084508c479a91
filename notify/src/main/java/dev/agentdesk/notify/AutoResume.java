package dev.agentdesk.notify;

import dev.agentdesk.terminal.parser.ResetTimes;
import dev.agentdesk.terminal.session.PtySession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Types the resume text into a session stopped at a rate or usage limit once the limit has reset
 * (plus the settings' margin) — only when asked (per session, or for all), and only if at that
 * moment nothing moved: no user input since the limit (input through agentdesk is reported by
 * {@link #userInput}; the PTY's input turn is checked too), the session still running, the limit
 * text still on screen. One resume per limit at most: a limit once resumed, cancelled or skipped is
 * never planned again (a different limit text later is a new limit).
 *
 * <p>Threading: the plans live on one scheduler thread (the worker): {@link #observe} and
 * {@link #userInput} only queue, so they are safe on a PTY reader thread; API calls that change a
 * plan wait for the worker (at most 5 s). An entry's fields are the worker's; the two that API
 * threads read ({@code enabled}, {@code plan}) are volatile. Typing the resume text, a PTY write
 * that blocks while the program does not read, runs on a typist thread of its own, which hands a
 * failure back to the worker.
 */
public final class AutoResume implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AutoResume.class);
  /** How often scheduled resumes are checked. */
  static final long TICK_MS = 200;

  /** What auto-resume needs of a session: its input turn, its screen, a way to type. */
  public interface Target {
    long turn();

    String screenText();

    boolean running();

    /** Types {@code text}, then presses Enter. */
    void type(String text);
  }

  /** A supervised PTY as a target. */
  public static Target target(PtySession pty) {
    return new Target() {
      @Override
      public long turn() {
        return pty.turn();
      }

      @Override
      public String screenText() {
        return pty.screen().text();
      }

      @Override
      public boolean running() {
        return pty.isRunning();
      }

      @Override
      public void type(String text) {
        try {
          pty.typeLine(text);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  /**
   * The plan for one limit of one session.
   *
   * @param session the session id
   * @param limitText the limit message
   * @param resetAt when the limit resets (null when the text names no reset: {@code state} is SKIPPED)
   * @param resumeAt reset plus margin: when the text is typed
   * @param state where it stands
   * @param reason why it was cancelled or skipped, or what was typed
   * @param decidedAt when it was resumed, cancelled or skipped (null while scheduled)
   */
  public record Plan(String session, String limitText, Instant resetAt, Instant resumeAt, State state, String reason,
      Instant decidedAt) {
    /** Where a plan stands. */
    public enum State {
      SCHEDULED, RESUMED, CANCELLED, SKIPPED;

      public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
      }
    }

    Plan decided(State s, String why, Instant at) {
      return new Plan(session, limitText, resetAt, resumeAt, s, why, at);
    }
  }

  private static final class Entry {
    final String name;
    final String agent;
    final String page;
    final Target target;
    /** Written by the worker only; volatile because API threads read it ({@link #enabled(String)}, {@link #override}). */
    volatile Boolean enabled;
    /** Written by the worker only; volatile because API threads read it ({@link #plan(String)}). */
    volatile Plan plan;
    long turnAtLimit;
    SessionView last;
    final Set<String> handledLimits = new HashSet<>();

    Entry(String name, String agent, String page, Target target) {
      this.name = name;
      this.agent = agent;
      this.page = page;
      this.target = target;
    }
  }

  private final boolean all;
  private final Supplier<NotifySettings> settings;
  private final Notifier notifier;
  private final Consumer<String> changed;
  private final Clock clock;
  private final ScheduledExecutorService worker;
  /**
   * Types resume texts: a PTY write blocks while its program does not read, and that must hold up
   * neither the other sessions' plans nor the API's calls, which all run on {@link #worker}.
   */
  private final java.util.concurrent.ExecutorService typist = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "agentdesk-auto-resume-typist");
    t.setDaemon(true);
    return t;
  });
  /** Only the worker thread writes the entries' fields (see the class comment); the map is read by API threads. */
  private final Map<String, Entry> sessions = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param all {@code serve --auto-resume}: on for every session that has not been turned off
   * @param notifier where each resume is announced (its settings give the text and margin)
   * @param changed told the session id whenever a session's plan or switch changed (for the dashboard)
   */
  public AutoResume(boolean all, Notifier notifier, Consumer<String> changed) {
    this(all, notifier::settings, notifier, changed, Clock.systemDefaultZone());
  }

  AutoResume(boolean all, Supplier<NotifySettings> settings, Notifier notifier, Consumer<String> changed, Clock clock) {
    this.all = all;
    this.settings = settings;
    this.notifier = notifier;
    this.changed = changed;
    this.clock = clock;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "agentdesk-auto-resume");
      t.setDaemon(true);
      return t;
    });
    worker.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
  }

  /**
   * Makes a session known (again, after its process restarted); {@code enabled} null follows
   * {@code serve --auto-resume} or keeps the switch it had. Returns once it is tracked; never call
   * it from a PTY reader thread.
   */
  public void track(String session, String name, String agent, String page, Target target, Boolean enabled) {
    await(() -> {
      Entry e = new Entry(name, agent, page, target);
      e.enabled = enabled;
      Entry old = sessions.put(session, e);
      if (old != null) {
        // A restarted process (an agent resumed) keeps its switch and its history: a limit it
        // already had is not planned a second time when the new process shows it again.
        if (enabled == null) {
          e.enabled = old.enabled;
        }
        e.handledLimits.addAll(old.handledLimits);
        e.plan = old.plan != null && old.plan.state() == Plan.State.SCHEDULED
            ? old.plan.decided(Plan.State.CANCELLED, "the session restarted", clock.instant()) : old.plan;
      }
    });
  }

  public void forget(String session) {
    run(() -> sessions.remove(session));
  }

  /** A session's new state: a limit with a reset is planned (when on). Only queues. */
  public void observe(SessionView v) {
    run(() -> {
      Entry e = sessions.get(v.session());
      if (e == null) {
        return;
      }
      e.last = v;
      plan(v.session(), e);
    });
  }

  /** Input reached the session through agentdesk (API, dashboard): a scheduled resume is cancelled. */
  public void userInput(String session) {
    run(() -> {
      Entry e = sessions.get(session);
      if (e != null) {
        decide(session, e, Plan.State.CANCELLED, "you typed into the session");
      }
    });
  }

  /**
   * Turns auto-resume on or off for one session (null: follow {@code serve --auto-resume}).
   * Turning it on while the session is stopped at a limit plans that limit now.
   *
   * @throws NotifyException {@code UNKNOWN_SESSION} when the session is not tracked
   */
  public void setEnabled(String session, Boolean on) {
    if (!sessions.containsKey(session)) {
      throw new NotifyException(NotifyException.Reason.UNKNOWN_SESSION, "no running session " + session
          + " to auto-resume");
    }
    await(() -> {
      Entry e = sessions.get(session);
      if (e == null) {
        return;
      }
      e.enabled = on;
      if (!enabled(e)) {
        decide(session, e, Plan.State.CANCELLED, "auto-resume was turned off");
      } else if (e.last != null) {
        plan(session, e);
      }
      changed.accept(session);
    });
  }

  /** Cancels the scheduled resume of a session; false when none was scheduled. */
  public boolean cancel(String session) {
    boolean[] done = {false};
    await(() -> {
      Entry e = sessions.get(session);
      if (e != null && e.plan != null && e.plan.state() == Plan.State.SCHEDULED) {
        decide(session, e, Plan.State.CANCELLED, "cancelled");
        done[0] = true;
      }
    });
    return done[0];
  }

  /** Whether auto-resume is on for the session (its own switch, else the server's). */
  public boolean enabled(String session) {
    Entry e = sessions.get(session);
    return e != null && enabled(e);
  }

  /** The session's own switch, or empty when it follows the server's. */
  public Optional<Boolean> override(String session) {
    Entry e = sessions.get(session);
    return e == null ? Optional.empty() : Optional.ofNullable(e.enabled);
  }

  public boolean tracked(String session) {
    return sessions.containsKey(session);
  }

  public boolean all() {
    return all;
  }

  /** The session's latest plan, if a limit was seen while auto-resume was on. */
  public Optional<Plan> plan(String session) {
    Entry e = sessions.get(session);
    return e == null ? Optional.empty() : Optional.ofNullable(e.plan);
  }

  public List<String> sessions() {
    return List.copyOf(sessions.keySet());
  }

  private boolean enabled(Entry e) {
    return e.enabled != null ? e.enabled : all;
  }

  private void plan(String session, Entry e) {
    SessionView v = e.last;
    if (!enabled(e) || v == null || !v.limited() || v.exited() || e.handledLimits.contains(v.limitText())) {
      return;
    }
    if (e.plan != null && e.plan.state() == Plan.State.SCHEDULED && e.plan.limitText().equals(v.limitText())) {
      return;
    }
    e.handledLimits.add(v.limitText());
    Instant now = clock.instant();
    // The whole limit text: a rate limit's own words, or "out of usage · resets X"; the rules find the reset in either.
    Optional<Instant> reset = ResetTimes.resetAt(v.limitText(), now.atZone(clock.getZone()));
    if (reset.isEmpty()) {
      e.plan = new Plan(session, v.limitText(), null, null, Plan.State.SKIPPED,
          "the limit names no reset time", now);
      LOG.info("auto-resume of {}: the limit names no reset time: {}", session, v.limitText());
    } else {
      Instant resumeAt = reset.get().plus(settings.get().resumeMargin());
      e.plan = new Plan(session, v.limitText(), reset.get(), resumeAt, Plan.State.SCHEDULED, null, null);
      e.turnAtLimit = e.target.turn();
      LOG.info("auto-resume of {} scheduled for {} (reset {})", session, resumeAt, reset.get());
    }
    changed.accept(session);
  }

  private void tick() {
    try {
      Instant now = clock.instant();
      for (Map.Entry<String, Entry> me : sessions.entrySet()) {
        Entry e = me.getValue();
        Plan p = e.plan;
        if (p == null || p.state() != Plan.State.SCHEDULED) {
          continue;
        }
        String session = me.getKey();
        if (!e.target.running()) {
          decide(session, e, Plan.State.CANCELLED, "the session ended");
        } else if (e.target.turn() != e.turnAtLimit) {
          decide(session, e, Plan.State.CANCELLED, "you typed into the session");
        } else if (!now.isBefore(p.resumeAt())) {
          if (!onScreen(p.limitText(), e.target.screenText())) {
            decide(session, e, Plan.State.SKIPPED, "the limit is no longer on screen");
          } else {
            resume(session, e, now);
          }
        }
      }
    } catch (RuntimeException ex) {
      LOG.warn("auto-resume check failed: {}", ex.toString());
    }
  }

  private void resume(String session, Entry e, Instant now) {
    String text = settings.get().resumeText();
    // Decided before typing: a failure while typing must not lead to a second try for this limit.
    Plan resumed = e.plan.decided(Plan.State.RESUMED, "typed '" + text + "' and Enter", now);
    e.plan = resumed;
    changed.accept(session);
    try {
      typist.execute(() -> type(session, e, resumed, text, now));
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // closed meanwhile
    }
  }

  /** On {@link #typist}: types, then tells the worker how it went. */
  private void type(String session, Entry e, Plan resumed, String text, Instant now) {
    try {
      e.target.type(text);
    } catch (RuntimeException ex) {
      run(() -> {
        if (e.plan == resumed) {
          e.plan = resumed.decided(Plan.State.CANCELLED, "typing failed: " + ex.getMessage(), now);
          changed.accept(session);
        }
      });
      return;
    }
    LOG.info("auto-resumed {}: typed '{}'", session, text);
    notifier.publish(new Notification(EventKind.AUTO_RESUMED, session, e.agent,
        Notifier.title(EventKind.AUTO_RESUMED, e.name, ""), "typed '" + text + "' after: " + resumed.limitText(),
        notifier.url(e.page), now));
  }

  private void decide(String session, Entry e, Plan.State state, String why) {
    if (e.plan != null && e.plan.state() == Plan.State.SCHEDULED) {
      e.plan = e.plan.decided(state, why, clock.instant());
      LOG.info("auto-resume of {} {}: {}", session, state.code(), why);
      changed.accept(session);
    }
  }

  /**
   * Whether the limit is still on screen: the start of its text (runs of spaces folded, rows
   * joined, so a wrapped message matches). A usage-exhausted state is known by its "out of" phrase.
   */
  static boolean onScreen(String limitText, String screen) {
    String hay = fold(screen.replace("\n", " "));
    String hayJoined = fold(screen.replace("\n", ""));
    String needle = limitText.startsWith("out of usage") ? "out of" : fold(limitText);
    if (needle.length() > 40) {
      needle = needle.substring(0, 40);
    }
    return hay.contains(needle) || hayJoined.contains(needle);
  }

  private static String fold(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  private void run(Runnable r) {
    try {
      worker.execute(r);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  private void await(Runnable r) {
    try {
      worker.submit(r).get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.RejectedExecutionException e) {
      throw new IllegalStateException("auto-resume did not answer: " + e);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
    typist.shutdownNow();
  }
}
