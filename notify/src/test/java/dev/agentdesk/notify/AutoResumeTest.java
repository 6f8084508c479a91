package dev.agentdesk.notify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Auto-resume against the Claude stand-in in a real PTY: its first turn stops at a usage-limit
 * screen whose reset is three seconds ahead (Claude's raw form with epoch seconds, so the test
 * need not wait for a whole minute). The stand-in logs every line it reads, so "typed once" is
 * what the program received, not what we meant to send.
 */
class AutoResumeTest {
  static final Path STANDINS = Path.of(System.getProperty("agentdesk.repo.root", ".."))
      .resolve("agents/src/test/resources/standins");

  /**
   * How far ahead the stand-in's limit resets. The limit must still be in the state when the test
   * replays it: 5 s was once too short for a stalled CI machine (the limit expired unseen).
   */
  private static final int RESET_SECONDS = 8;

  @TempDir Path dir;
  /** When the test saw the limit in the state: its reset is at most RESET_SECONDS later. */
  private Instant limitSeen;
  private Notifier notifier;
  private final List<Notification> browser = new CopyOnWriteArrayList<>();
  private PtySession pty;
  private AutoResume resume;

  @BeforeEach
  void start() {
    notifier = Notifier.start(Notifier.Options.defaults(), browser::add);
    notifier.updateSettings(NotifySettings.defaults().withResumeMargin(Duration.ofSeconds(1)));
  }

  @AfterEach
  void stop() {
    if (pty != null) {
      pty.close();
    }
    if (resume != null) {
      resume.close();
    }
    notifier.close();
  }

  private Path log() {
    return dir.resolve("input.log");
  }

  private List<String> received() throws IOException {
    return Files.exists(log()) ? Files.readAllLines(log()) : List.of();
  }

  /** Starts the stand-in at its usage limit, watched by auto-resume with {@code enabled}. */
  private void startAtLimit(Boolean enabled, boolean all) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String name : new String[] {"claude", "standin.py"}) {
      Path p = bin.resolve(name);
      Files.copy(STANDINS.resolve(name), p);
      p.toFile().setExecutable(true);
    }
    Path home = Files.createDirectories(dir.resolve("home"));
    Path work = Files.createDirectories(dir.resolve("work"));
    resume = new AutoResume(all, notifier, id -> {});
    SessionSpec spec = SessionSpec.of(List.of(bin.resolve("claude").toString(), "Add a retry")).withCwd(work)
        .withAgent(Agent.CLAUDE).withEnv("HOME", home.toString()).withEnv("STANDIN_SCENARIO", "usage-limit")
        .withEnv("STANDIN_RESET_SECONDS", Integer.toString(RESET_SECONDS)).withEnv("STANDIN_INPUT_LOG", log().toString());
    // Auto-resume ignores the states of a session it does not track yet; the current one is replayed below.
    pty = PtySession.start(spec, List.of(new SessionWatch("t1", "claude", notifier, resume)));
    resume.track("t1", "claude", "claude", "#/terminals/t1", AutoResume.target(pty), enabled);
    // The state, not the screen: a row on screen is parsed once the cursor has left it. The reset is
    // RESET_SECONDS ahead so that a slow machine still replays the limit before it expires.
    Await.until("the limit in the state", Duration.ofSeconds(20),
        () -> SessionView.ofTerminal("t1", "claude", pty.state()).limited(), () -> pty.screen().text());
    limitSeen = Instant.now();
    resume.observe(SessionView.ofTerminal("t1", "claude", pty.state()));
  }

  private void awaitScheduled() throws InterruptedException {
    Await.until("a scheduled resume", Duration.ofSeconds(10),
        () -> resume.plan("t1").map(p -> p.state() == AutoResume.Plan.State.SCHEDULED).orElse(false),
        () -> resume.plan("t1").toString());
  }

  private void awaitPast(Instant resumeAt) throws InterruptedException {
    while (Instant.now().isBefore(resumeAt.plusSeconds(2))) {
      Thread.sleep(100);
    }
  }

  @Test
  void resumesExactlyOnceAfterTheReset() throws Exception {
    startAtLimit(true, false);
    awaitScheduled();
    AutoResume.Plan p = resume.plan("t1").orElseThrow();
    assertThat(p.resumeAt()).isEqualTo(p.resetAt().plusSeconds(1));
    assertThat(p.resetAt()).isAfter(Instant.now().minusSeconds(2)).isBefore(Instant.now().plusSeconds(RESET_SECONDS + 2));

    Await.until("the stand-in to read 'continue'", Duration.ofSeconds(20), () -> {
      try {
        return received().contains("continue");
      } catch (IOException e) {
        return false;
      }
    }, () -> pty.screen().text());
    assertThat(Instant.now()).isAfterOrEqualTo(p.resumeAt());
    // The stand-in runs its next turn; nothing is typed again while the old limit text is gone
    // or still in the scrollback.
    Await.until("the resumed turn", Duration.ofSeconds(20), () -> pty.screen().text().contains("Done: continue"),
        () -> pty.screen().text());
    Thread.sleep(1500);
    assertThat(received()).containsExactly("continue");
    assertThat(resume.plan("t1").orElseThrow().state()).isEqualTo(AutoResume.Plan.State.RESUMED);
    Await.until("the resume notification", () -> browser.stream().anyMatch(n -> n.event() == EventKind.AUTO_RESUMED));
    assertThat(browser).filteredOn(n -> n.event() == EventKind.AUTO_RESUMED).singleElement()
        .satisfies(n -> assertThat(n.title()).isEqualTo("claude resumed after its limit reset"));
    assertThat(browser).filteredOn(n -> n.event() == EventKind.RATE_LIMIT).hasSize(1);
  }

  @Test
  void doesNotResumeWhenTheUserTypedFirst() throws Exception {
    startAtLimit(true, false);
    awaitScheduled();
    Instant resumeAt = resume.plan("t1").orElseThrow().resumeAt();
    pty.write("wait for me");
    pty.sendKey(Key.ENTER);
    Await.until("the cancel", Duration.ofSeconds(10),
        () -> resume.plan("t1").orElseThrow().state() == AutoResume.Plan.State.CANCELLED, () -> resume.plan("t1").toString());
    assertThat(resume.plan("t1").orElseThrow().reason()).isEqualTo("you typed into the session");
    awaitPast(resumeAt);
    assertThat(received()).containsExactly("wait for me");
  }

  @Test
  void inputReportedByTheServerCancelsEvenWithoutEnter() throws Exception {
    startAtLimit(null, true);
    awaitScheduled();
    Instant resumeAt = resume.plan("t1").orElseThrow().resumeAt();
    pty.write("half a thought"); // no Enter: the PTY's turn does not move, the server's report does
    resume.userInput("t1");
    awaitPast(resumeAt);
    assertThat(resume.plan("t1").orElseThrow().state()).isEqualTo(AutoResume.Plan.State.CANCELLED);
    assertThat(received()).isEmpty();
  }

  @Test
  void doesNothingWhenAutoResumeIsOff() throws Exception {
    startAtLimit(null, false);
    awaitPast(limitSeen.plusSeconds(RESET_SECONDS + 1)); // the reset plus auto-resume's margin (1 s)
    assertThat(resume.plan("t1")).isEmpty();
    assertThat(received()).isEmpty();
    assertThat(pty.screen().text()).contains("usage limit reached");
    // The limit itself is still notified.
    assertThat(browser).filteredOn(n -> n.event() == EventKind.RATE_LIMIT).hasSize(1);
  }

  @Test
  void turningItOnWhileStoppedAtTheLimitPlansThatLimitAndCancelStopsIt() throws Exception {
    startAtLimit(null, false);
    Await.until("the limit in the state", () -> SessionView.ofTerminal("t1", "claude", pty.state()).limited());
    resume.setEnabled("t1", true);
    Await.until("a scheduled resume", () -> resume.plan("t1").isPresent());
    assertThat(resume.cancel("t1")).isTrue();
    assertThat(resume.plan("t1").orElseThrow().reason()).isEqualTo("cancelled");
    assertThat(resume.cancel("t1")).isFalse();
    awaitPast(limitSeen.plusSeconds(RESET_SECONDS + 1)); // the reset plus auto-resume's margin (1 s)
    assertThat(received()).isEmpty();
  }

  /** Beside the real-PTY tests: a screen that moved on by itself (no input) is not typed into. */
  @Test
  void aLimitNoLongerOnScreenIsNotResumed() throws Exception {
    AtomicReference<String> screen = new AtomicReference<>("  ⎿  Claude AI usage limit reached|1750708800");
    List<String> typed = new CopyOnWriteArrayList<>();
    AtomicLong now = new AtomicLong(Instant.parse("2025-06-23T19:59:00Z").toEpochMilli());
    Clock clock = new Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(now.get());
      }
    };
    try (AutoResume r = new AutoResume(true, () -> NotifySettings.defaults().withResumeMargin(Duration.ZERO), notifier,
        id -> {}, clock)) {
      r.track("s", "claude", "claude", "#/terminals/s", new AutoResume.Target() {
        @Override
        public long turn() {
          return 0;
        }

        @Override
        public String screenText() {
          return screen.get();
        }

        @Override
        public boolean running() {
          return true;
        }

        @Override
        public void type(String text) {
          typed.add(text);
        }
      }, null);
      r.observe(new SessionView("s", "#/terminals/s", "claude", "claude", false, null, false,
          "Claude AI usage limit reached|1750708800", null, List.of(), false, null, 0));
      Await.until("the plan", () -> r.plan("s").isPresent());
      screen.set("⏺ Working on it (the agent went on by itself)");
      now.set(Instant.parse("2025-06-23T20:00:01Z").toEpochMilli());
      Await.until("the decision", () -> r.plan("s").orElseThrow().state() != AutoResume.Plan.State.SCHEDULED);
      assertThat(r.plan("s").orElseThrow().state()).isEqualTo(AutoResume.Plan.State.SKIPPED);
      assertThat(r.plan("s").orElseThrow().reason()).isEqualTo("the limit is no longer on screen");
      assertThat(typed).isEmpty();
    }
  }

  /**
   * A session whose program stopped reading blocks the typing of its resume text: the other
   * sessions' plans and the API still answer meanwhile (typing runs on a thread of its own).
   */
  @Test
  void aResumeWhoseTypingBlocksHoldsUpNeitherOtherSessionsNorTheApi() throws Exception {
    AtomicLong now = new AtomicLong(Instant.parse("2025-06-23T19:00:00Z").toEpochMilli());
    Clock clock = new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(now.get());
      }
    };
    java.util.concurrent.CountDownLatch typing = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch unblock = new java.util.concurrent.CountDownLatch(1);
    String limit = "Claude AI usage limit reached|1750708800"; // 20:00 UTC
    try (AutoResume r = new AutoResume(true, () -> NotifySettings.defaults().withResumeMargin(Duration.ZERO), notifier,
        id -> {}, clock)) {
      r.track("stuck", "claude", "claude", "#/terminals/stuck", target(limit, text -> {
        typing.countDown();
        try {
          unblock.await(30, java.util.concurrent.TimeUnit.SECONDS); // a PTY whose program does not read
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }), null);
      r.observe(new SessionView("stuck", "#/terminals/stuck", "claude", "claude", false, null, false, limit, null,
          List.of(), false, null, 0));
      Await.until("the plan", () -> r.plan("stuck").isPresent());
      now.set(Instant.parse("2025-06-23T20:00:01Z").toEpochMilli());
      assertThat(typing.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the resume is being typed").isTrue();
      assertThat(r.plan("stuck").orElseThrow().state()).isEqualTo(AutoResume.Plan.State.RESUMED);

      // meanwhile another session's limit is planned and the API changes it at once
      List<String> typed = new CopyOnWriteArrayList<>();
      r.track("other", "claude", "claude", "#/terminals/other", target("Claude AI usage limit reached|1750712400",
          typed::add), null);
      r.observe(new SessionView("other", "#/terminals/other", "claude", "claude", false, null, false,
          "Claude AI usage limit reached|1750712400", null, List.of(), false, null, 0));
      Await.until("the other plan", () -> r.plan("other").isPresent());
      long before = System.nanoTime();
      assertThat(r.cancel("other")).isTrue();
      r.setEnabled("stuck", false);
      assertThat((System.nanoTime() - before) / 1_000_000).as("the API answered without waiting for the typing")
          .isLessThan(4_000);
      assertThat(r.plan("other").orElseThrow().state()).isEqualTo(AutoResume.Plan.State.CANCELLED);
      unblock.countDown();
      assertThat(typed).isEmpty();
    }
  }

  /** A target at {@code limit} that types through {@code typer}. */
  private static AutoResume.Target target(String limit, java.util.function.Consumer<String> typer) {
    return new AutoResume.Target() {
      @Override
      public long turn() {
        return 0;
      }

      @Override
      public String screenText() {
        return limit;
      }

      @Override
      public boolean running() {
        return true;
      }

      @Override
      public void type(String text) {
        typer.accept(text);
      }
    };
  }
}
