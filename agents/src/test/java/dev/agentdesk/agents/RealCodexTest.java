package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.parser.ErrorKind;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.testkit.CodexHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI (agents/real-agents.versions) in agent sessions on real PTYs, against the
 * scripted model server's Responses API through a custom model provider: one server, one service
 * and one repository for the class; each test its own worktree and its own marker in the prompt.
 */
class RealCodexTest {
  /** Worktrees trusted up front in Codex's configuration; "first" is not, so it shows the trust screen. */
  static final List<String> WORKTREES = List.of("hello", "shell", "errors", "retry", "stop");
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static CodexHome codex;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    Path root = tmp.resolve("worktrees");
    codex = new CodexHome(tmp.resolve("home")).configured(model.baseUrl(),
        WORKTREES.stream().map(n -> root.resolve("demo").resolve(n)).toList());
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), root, codex.env(),
        Duration.ofSeconds(30), Duration.ofMillis(100), TerminalHost.direct()));
  }

  @AfterAll
  static void tearDown() {
    if (sessions != null) {
      sessions.close();
    }
    if (model != null) {
      model.close();
    }
  }

  @Test
  void aPromptOnTheCommandLineIsAnsweredLinkedAndCountedToTheToken() throws Exception {
    model.add(Script.of("c-hello", Reply.text("Hello from the script, slowly, in twelve small pieces.")
        .withUsage(new Reply.Usage(1200, 34, 0, 500)).slow(Duration.ofMillis(250), 12)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("hello")
        .withPrompt("say hello c-hello"));

    // the argv agentdesk built is one this version runs; the key reaches the server
    ModelRequest first = awaitRequest(s.id(), "c-hello", 0);
    assertThat(first.prompt()).isEqualTo("say hello c-hello");
    assertThat(first.header("authorization")).isEqualTo("Bearer " + CodexHome.KEY);
    assertThat(first.model()).isEqualTo(CodexHome.MODEL);
    AgentSession streaming = await(s.id(), "busy while the reply streams", x -> x.status().phase() == Phase.BUSY);
    assertThat(screen(streaming.id())).doesNotContain("small pieces.");

    AgentSession done = await(s.id(), "the reply, linked and counted", x -> x.tokens() != null
        && x.tokens().output() == 34 && screen(x.id()).contains("in twelve small pieces.")
        && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().path().getFileName().toString()).startsWith("rollout-")
        .endsWith(done.transcript().sessionId() + ".jsonl");
    assertThat(done.transcript().path()).startsWith(codex.codexHome().resolve("sessions"));
    // the Responses API counts cached input inside input_tokens; the transcript gives it back apart
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 500, 0));
    assertThat(done.status().awaitingInput()).isFalse();
  }

  @Test
  void theFirstRunTrustScreenIsAMenuAnsweredThroughTheApi() throws Exception {
    model.add(Script.of("c-first", Reply.text("Welcome aboard.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("first")
        .withPrompt("hi c-first"));

    // answered once its output is quiet: Codex draws the screen, then looks up the Git root and adds
    // a note about it, and a key pressed before that was seen to be lost
    AgentSession trust = await(s.id(), "the trust screen, drawn", x -> x.status().choice() != null
        && screen(x.id()).contains("Trusting will apply to the repository root") && !x.terminal().busy());
    assertThat(trust.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(trust.status().question()).isEqualTo("Trust this folder?");
    assertThat(trust.status().choice().title()).isEqualTo("Trust this folder?");
    assertThat(trust.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Trust and continue", "Back to Agent Command Center");
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "c-first", 0);
    await(s.id(), "the reply", x -> screen(x.id()).contains("Welcome aboard.") && x.status().phase() == Phase.IDLE);
    // as Claude does, Codex records the trust of a git worktree under the main checkout's folder
    assertThat(Files.readString(codex.codexHome().resolve("config.toml")))
        .contains("[projects.\"" + repo.top.toRealPath() + "\"]\ntrust_level = \"trusted\"");
    sessions.forget(s.id());
  }

  @Test
  void theApprovalPromptAsksItsQuestionAndRunsTheCommandOnYes() throws Exception {
    model.add(Script.of("c-shell",
        Reply.tool("exec_command", "{\"cmd\":\"echo made > shell_made.txt\",\"sandbox_permissions\":"
            + "\"require_escalated\",\"justification\":\"Write shell_made.txt in the repository?\"}"),
        Reply.text("Made the file.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("shell")
        .withPrompt("make a file c-shell"));

    AgentSession asking = await(s.id(), "the approval prompt", x -> x.status().choice() != null);
    assertThat(asking.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(asking.status().question()).isEqualTo("Would you like to run the following command?");
    assertThat(asking.status().choice().title()).isEqualTo("Would you like to run the following command?");
    assertThat(asking.status().choice().options()).extracting(PendingChoice.Option::label).hasSize(3)
        .startsWith("Yes, proceed").last().asString().startsWith("No");
    assertThat(s.worktree().resolve("shell_made.txt")).doesNotExist();
    sessions.answer(s.id(), 1);

    ModelRequest ran = awaitRequest(s.id(), "c-shell", 1);
    assertThat(ran.body()).contains("function_call_output");
    AgentSession done = await(s.id(), "the end of the turn", x -> screen(x.id()).contains("Made the file.")
        && x.status().phase() == Phase.IDLE);
    assertThat(done.worktree().resolve("shell_made.txt")).hasContent("made");
    assertThat(done.status().awaitingInput()).isFalse();
  }

  @Test
  void a429IsARateLimitAndA500AnApiErrorEachWholeAndOnce() throws Exception {
    model.add(Script.ofSteps("c-429", Step.of(new Reply.Failure(429, "rate_limit_exceeded",
        "Rate limit reached for requests", Map.of()))));
    model.add(Script.ofSteps("c-500", Step.of(new Reply.Failure(500, "server_error", "Internal server error",
        Map.of()))));
    model.add(Script.of("c-fine", Reply.text("Fine again.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("errors")
        .withPrompt("go c-500"));
    List<ParsedEvent> reported = new CopyOnWriteArrayList<>();
    PtySession pty = sessions.terminal(s.id()).orElseThrow();
    pty.addListener(new SessionListener() {
      @Override
      public void onEvent(SessionEvent e) {
        if (e instanceof SessionEvent.Parsed p && (p.event() instanceof ParsedEvent.RateLimit
            || p.event() instanceof ParsedEvent.ApiError)) {
          reported.add(p.event());
        }
      }
    });

    // one retry (CodexHome), then the end of the turn
    AgentSession failed = await(s.id(), "the 500", x -> "server".equals(x.terminal().lastApiErrorKind())
        && x.status().phase() == Phase.IDLE);
    assertThat(failed.terminal().lastApiError())
        .isEqualTo("We\u2019re currently experiencing high demand, which may cause temporary errors.");
    assertThat(model.requests().stream().filter(r -> "c-500".equals(r.script()))).hasSize(2);

    sessions.send(s.id(), "then c-429");
    AgentSession limited = await(s.id(), "the 429", x -> x.status().phase() == Phase.RATE_LIMITED);
    assertThat(limited.terminal().rateLimitText()).isEqualTo("exceeded retry limit, last status: 429 Too Many Requests");
    assertThat(limited.terminal().lastApiError()).isEqualTo(limited.terminal().rateLimitText());
    assertThat(limited.terminal().rateLimitedUntilMs()).isNull();

    sessions.send(s.id(), "and c-fine");
    await(s.id(), "a good turn after", x -> screen(x.id()).contains("Fine again.") && x.status().phase() == Phase.IDLE);
    assertThat(reported).as("each error reported once, not again as the screen redraws").hasSize(3);
    // the 500's one reconnect, then the end of its turn, then the 429
    assertThat(reported.get(0)).isEqualTo(new ParsedEvent.ApiError("codex-api-retry", RECONNECT, ErrorKind.SERVER));
    assertThat(reported.get(1)).isInstanceOf(ParsedEvent.ApiError.class)
        .extracting(e -> ((ParsedEvent.ApiError) e).patternName()).isEqualTo("codex-api-error");
    assertThat(reported.get(2)).isInstanceOf(ParsedEvent.RateLimit.class);
  }

  /** Codex's reconnect after a 500 (CodexHome allows one), as its two rows say it, in one line. */
  static final String RECONNECT =
      "Reconnecting... 1/1: We\u2019re currently experiencing high demand, which may cause temporary errors.";

  @Test
  void aRetriedFailureIsReportedAsARetryWithItsTextAndTheTurnGoesOn() throws Exception {
    model.add(Script.ofSteps("c-reconnect", Step.retried(new Reply.Failure(500, "server_error", "Internal server error",
        Map.of()), 1, Reply.text("Recovered after a reconnect."))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("retry")
        .withPrompt("go c-reconnect"));
    List<ParsedEvent> reported = new CopyOnWriteArrayList<>();
    sessions.terminal(s.id()).orElseThrow().addListener(new SessionListener() {
      @Override
      public void onEvent(SessionEvent e) {
        if (e instanceof SessionEvent.Parsed p && (p.event() instanceof ParsedEvent.RateLimit
            || p.event() instanceof ParsedEvent.ApiError)) {
          reported.add(p.event());
        }
      }
    });

    AgentSession done = await(s.id(), "the answer after the reconnect", x -> screen(x.id())
        .contains("Recovered after a reconnect.") && x.status().phase() == Phase.IDLE);
    assertThat(model.requests().stream().filter(r -> "c-reconnect".equals(r.script()))).hasSize(2);
    // the retry, once, with its whole text; it was the last API error, and no limit or end-of-turn error followed
    assertThat(reported).containsExactly(new ParsedEvent.ApiError("codex-api-retry", RECONNECT, ErrorKind.SERVER));
    assertThat(done.terminal().lastApiError()).isEqualTo(RECONNECT);
    assertThat(done.terminal().lastApiErrorKind()).isEqualTo("server");
    assertThat(done.terminal().rateLimitText()).isNull();
    sessions.stop(s.id());
  }

  @Test
  void stopEndsCodexAndLeavesNoProcessBehindAndResumeDoesNotReportThePastAgain() throws Exception {
    model.add(Script.ofSteps("c-stop429", Step.of(new Reply.Failure(429, "rate_limit_exceeded",
        "Rate limit reached for requests", Map.of()))));
    model.add(Script.of("c-after", Reply.text("After the resume.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("stop")
        .withPrompt("first c-stop429"));
    await(s.id(), "the old limit", x -> x.status().phase() == Phase.RATE_LIMITED && x.transcript() != null);
    PtySession pty = sessions.terminal(s.id()).orElseThrow();
    long pid = pty.pid();
    String mark = PtySession.SESSION_ENV + "=" + pty.sessionId();
    assertThat(processesWith(mark)).as("the test sees the agent's processes").contains(pid);
    List<ProcessHandle> tree = Stream.concat(ProcessHandle.of(pid).stream(),
        ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants)).toList();

    long before = System.nanoTime();
    AgentSession stopped = sessions.stop(s.id());
    long stopMs = (System.nanoTime() - before) / 1_000_000;
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    assertThat(tree).as("the process tree seen before the stop").noneMatch(ProcessHandle::isAlive);
    assertThat(processesWith(mark)).as("no process of this session, in any group or session").isEmpty();
    assertThat(stopMs).as("ended by its own exit key, not after TERM").isLessThan(2_000);
    assertThat(stopped.transcript().path()).exists();

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("resume", AgentRules.CODEX_NO_DAEMON, stopped.transcript().sessionId());
    // the old conversation is redrawn, the 429 with it, and the output settles: not a new limit
    await(s.id(), "the redrawn past", x -> screen(x.id()).contains("exceeded retry limit, last status: 429")
        && x.status().phase() == Phase.IDLE);
    AgentSession quiet = sessions.get(s.id());
    assertThat(quiet.terminal().rateLimitText()).isNull();
    assertThat(quiet.terminal().lastApiError()).isNull();

    sessions.send(s.id(), "then c-after");
    AgentSession after = await(s.id(), "a reply after the resume", x -> screen(x.id()).contains("After the resume.")
        && x.status().phase() == Phase.IDLE);
    assertThat(after.transcript()).isEqualTo(stopped.transcript());
    sessions.stop(s.id());
    assertThat(processesWith(PtySession.SESSION_ENV + "=" + after.terminal().sessionId())).isEmpty();
  }

  // ---- helpers ----

  /**
   * Live processes whose environment holds {@code entry}: every process the agent started inherits
   * its {@code AGENTDESK_SESSION}, whatever group or session it moved to (a daemon that setsid()s).
   */
  static List<Long> processesWith(String entry) throws IOException {
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      return procs.filter(p -> p.getFileName().toString().matches("\\d+")).filter(p -> {
        try {
          return List.of(new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.UTF_8).split("\0"))
              .contains(entry);
        } catch (IOException | SecurityException e) {
          return false; // gone meanwhile, or not ours to read
        }
      }).map(p -> Long.parseLong(p.getFileName().toString())).toList();
    }
  }

  static String screen(String id) {
    return RealAgentWaits.screen(sessions, id);
  }

  /** The first request of step {@code step} of script {@code marker}, failing with the agent's screen. */
  static ModelRequest awaitRequest(String id, String marker, int step) throws InterruptedException {
    return RealAgentWaits.awaitRequest(model, sessions, id, marker, step, 1);
  }

  static AgentSession await(String id, String what, Predicate<AgentSession> p) throws InterruptedException {
    return RealAgentWaits.await(model, sessions, id, what, p);
  }
}
