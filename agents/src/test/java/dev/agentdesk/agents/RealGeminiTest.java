package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.testkit.Processes;
import dev.agentdesk.testkit.GeminiCliHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Gemini CLI (agents/real-agents.versions) in agent sessions on real PTYs, against the
 * scripted model server's Gemini dialect: one server, one service and one repository for the
 * class; each test its own worktree and its own marker in the prompt, so the scripts never meet.
 */
class RealGeminiTest {
  /** Worktrees trusted up front in Gemini's trustedFolders.json ("trust" is not: its test answers the dialog). */
  static final List<String> TRUSTED = List.of("hello", "errors", "resume");
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static GeminiCliHome gemini;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    Path root = tmp.resolve("worktrees");
    gemini = new GeminiCliHome(tmp.resolve("home")).trusted(TRUSTED.stream().map(n -> root.resolve("demo").resolve(n)).toList());
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), root,
        gemini.env(model.baseUrl()), Duration.ofSeconds(30), Duration.ofMillis(100), TerminalHost.direct()));
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
    // a slow stream: ten parts 250 ms apart
    model.add(Script.of("g-hello", Reply.text("Hello from the script, slowly, in ten small pieces.")
        .withUsage(new Reply.Usage(1200, 34, 0, 300)).slow(Duration.ofMillis(250), 10)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.GEMINI, repo.top).withWorktree("hello")
        .withPrompt("say hello g-hello"));

    // the argv agentdesk built (--prompt-interactive <prompt>) is one this version runs
    assertThat(s.argv()).endsWith("--prompt-interactive", "say hello g-hello");
    ModelRequest first = awaitRequest(s.id(), "g-hello", 0);
    assertThat(first.header("x-goog-api-key")).isEqualTo(GeminiCliHome.KEY);
    assertThat(first.model()).isEqualTo(GeminiCliHome.MODEL);
    AgentSession streaming = await(s.id(), "busy while the reply streams", x -> x.status().phase() == Phase.BUSY);
    assertThat(screen(streaming.id())).doesNotContain("small pieces.");

    AgentSession done = await(s.id(), "the reply, linked and counted", x -> x.tokens() != null
        && x.tokens().output() == 34 && screen(x.id()).contains("in ten small pieces.") && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().provider()).isEqualTo("gemini");
    assertThat(done.transcript().path().getFileName().toString()).endsWith(done.transcript().sessionId().substring(0, 8) + ".jsonl");
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 300, 0, 0));
    assertThat(done.status().awaitingInput()).isFalse();
  }

  @Test
  void theTrustDialogAndTheShellApprovalAreAnsweredAndTheLinkFollowsTheRestart() throws Exception {
    Reply.Usage hi = new Reply.Usage(700, 20, 0, 100);
    model.add(Script.of("g-trust", Reply.text("Trusted hello.").withUsage(hi)));
    Reply.Usage call = new Reply.Usage(900, 11, 0, 0);
    Reply.Usage after = new Reply.Usage(950, 7, 0, 0);
    model.add(Script.of("g-shell", Reply.tool("run_shell_command",
            "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}").withUsage(call),
        Reply.text("Wrote it.").withUsage(after)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.GEMINI, repo.top).withWorktree("trust")
        .withPrompt("hi g-trust"));

    AgentSession trust = await(s.id(), "the trust dialog", x -> x.status().choice() != null
        && x.status().choice().title().equals("Do you trust the files in this folder?"));
    assertThat(trust.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(trust.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Trust folder (trust)", "Trust parent folder (demo)", "Don't trust");
    // 0.61 runs the prompt behind the dialog: its answer is in the first chat file
    AgentSession first = await(s.id(), "the first process's answer, linked", x -> x.transcript() != null
        && x.tokens() != null && x.tokens().output() == 20);
    String firstId = first.transcript().sessionId();
    sessions.answer(s.id(), 1);

    // Gemini restarts, asks again in a new chat file; the link moves there and the tokens count both
    awaitRequest(s.id(), "g-trust", 0, 2);
    AgentSession relinked = await(s.id(), "the link to the restarted process's file", x -> x.transcript() != null
        && !x.transcript().sessionId().equals(firstId) && x.tokens() != null && x.tokens().output() == 40
        && x.status().phase() == Phase.IDLE);
    assertThat(relinked.tokens()).isEqualTo(new TokenUsage(1400, 40, 200, 0, 0));
    // the left file stays in the link: its response is the session's too (tokens, cost)
    assertThat(relinked.transcript().earlier()).extracting(TranscriptLink.Part::sessionId).containsExactly(firstId);
    assertThat(relinked.transcript().earlier().get(0).path()).isEqualTo(first.transcript().path());
    assertThat(Files.readString(gemini.dir().resolve("trustedFolders.json"))).contains(relinked.worktree().toString());

    sessions.send(s.id(), "run it g-shell");
    AgentSession approval = await(s.id(), "the shell approval", x -> x.status().choice() != null
        && x.status().choice().title().equals("Allow execution of [Shell]?"));
    assertThat(approval.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(approval.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Allow once", "Allow for this session", "No, suggest changes");
    assertThat(approval.worktree().resolve("out.txt")).doesNotExist();
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "g-shell", 1);
    AgentSession done = await(s.id(), "the end of the turn", x -> screen(x.id()).contains("Wrote it.")
        && x.status().phase() == Phase.IDLE && x.tokens() != null && x.tokens().output() == 58);
    assertThat(done.worktree().resolve("out.txt")).hasContent("hi");
    assertThat(done.transcript().sessionId()).isEqualTo(relinked.transcript().sessionId());
    // the later turns are in the linked file: the transcript view has them
    assertThat(Files.readString(done.transcript().path())).contains("run_shell_command").contains("Wrote it.");
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1400 + 900 + 950, 58, 200, 0, 0));
  }

  @Test
  void retriesLimitsAndErrorsAreReportedOnceWithTheirWholeText() throws Exception {
    model.add(Script.ofSteps("g-retry", Step.retried(new Reply.Failure(500, "INTERNAL", "Internal error encountered.",
        Map.of()), 1, Reply.text("Recovered after a retry."))));
    model.add(Script.ofSteps("g-quota", Step.of(new Reply.Failure(429, "RESOURCE_EXHAUSTED",
        "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0,"
            + " model: gemini-2.5-flash", Map.of()))));
    model.add(Script.ofSteps("g-e400", Step.of(new Reply.Failure(400, "INVALID_ARGUMENT",
        "Request contains an invalid argument.", Map.of()))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.GEMINI, repo.top).withWorktree("errors")
        .withPrompt("go g-retry"));

    // a 500 is retried after Gemini's own delay (5 s ± 30 %), quietly: no error to report
    awaitRequest(s.id(), "g-retry", 0, 2);
    AgentSession recovered = await(s.id(), "the recovery", x -> screen(x.id()).contains("Recovered after a retry.")
        && x.status().phase() == Phase.IDLE);
    assertThat(recovered.terminal().lastApiError()).isNull();

    // a hard 429 asks first ("Keep trying" / "Stop"), then is the limit, whole
    sessions.send(s.id(), "again g-quota");
    AgentSession asked = await(s.id(), "the usage-limit dialog", x -> x.status().choice() != null
        && x.status().choice().title().equals("Usage limit reached for gemini-2.5-flash."));
    assertThat(asked.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(asked.status().choice().options()).extracting(PendingChoice.Option::label).containsExactly("Keep trying", "Stop");
    assertThat(asked.terminal().rateLimitText()).isNull();
    sessions.answer(s.id(), 2);
    AgentSession limited = await(s.id(), "the hard limit", x -> x.status().phase() == Phase.RATE_LIMITED);
    assertThat(limited.terminal().rateLimitText()).isEqualTo(
        "[API Error: Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests,"
            + " limit: 0, model: gemini-2.5-flash] Please wait and try again later. To increase your limits, request a"
            + " quota increase through AI Studio, or switch to another /auth method");
    assertThat(limited.terminal().rateLimitedUntilMs()).isNull();
    // the turn ends with Gemini's hint; before that it takes no new prompt
    await(s.id(), "the end of the failed turn", x -> screen(x.id()).contains("This request failed."));

    sessions.send(s.id(), "again g-e400");
    AgentSession failed = await(s.id(), "the 400", x -> x.terminal().lastApiError() != null
        && x.terminal().lastApiError().contains("\"code\":400"));
    assertThat(failed.terminal().lastApiError()).isEqualTo("[API Error: {\"error\":{\"code\":400,\"message\":"
        + "\"Request contains an invalid argument.\",\"status\":\"INVALID_ARGUMENT\"}}]");
    assertThat(failed.status().phase()).isNotEqualTo(Phase.RATE_LIMITED);
    assertThat(model.requestsFor("g-e400")).hasSize(1);
  }

  @Test
  void stopEndsGeminiWithItsOwnQuitAndLeavesNoProcessAndResumeStaysLinked() throws Exception {
    model.add(Script.of("g-before", Reply.text("Before the stop.").withUsage(new Reply.Usage(400, 9, 0, 0))));
    model.add(Script.of("g-after", Reply.text("After the resume.").withUsage(new Reply.Usage(500, 6, 0, 0))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.GEMINI, repo.top).withWorktree("resume")
        .withPrompt("first g-before"));
    AgentSession linked = await(s.id(), "the first turn, linked", x -> x.transcript() != null && x.tokens() != null
        && x.tokens().output() == 9 && x.status().phase() == Phase.IDLE);
    assertThat(Processes.workingIn(linked.worktree())).isNotEmpty();

    long before = System.nanoTime();
    AgentSession stopped = sessions.stop(s.id());
    long stopMs = (System.nanoTime() - before) / 1_000_000;
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    assertThat(stopMs).as("ended by its own quit (Ctrl-C twice), not after TERM").isLessThan(2_500);
    assertThat(Processes.workingIn(linked.worktree())).isEmpty();

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("--resume", linked.transcript().sessionId());
    await(s.id(), "the redrawn past", x -> screen(x.id()).contains("Before the stop.") && x.status().phase() == Phase.IDLE);
    sessions.send(s.id(), "then g-after");
    AgentSession more = await(s.id(), "the resumed turn, in the same file", x -> screen(x.id()).contains("After the resume.")
        && x.tokens() != null && x.tokens().output() == 15);
    assertThat(more.transcript()).isEqualTo(linked.transcript());
    assertThat(more.tokens()).isEqualTo(new TokenUsage(900, 15, 0, 0, 0));
    sessions.stop(s.id());
    assertThat(Processes.workingIn(linked.worktree())).isEmpty();
  }

  // ---- helpers ----

  static String screen(String id) {
    return RealAgentWaits.screen(sessions, id);
  }

  /** The first request of step {@code step} of script {@code marker}, failing with the agent's screen. */
  static ModelRequest awaitRequest(String id, String marker, int step) throws InterruptedException {
    return RealAgentWaits.awaitRequest(model, sessions, id, marker, step, 1);
  }

  /** The {@code nth} request of step {@code step} of script {@code marker}, failing with the agent's screen. */
  static ModelRequest awaitRequest(String id, String marker, int step, int nth) throws InterruptedException {
    return RealAgentWaits.awaitRequest(model, sessions, id, marker, step, nth);
  }

  static AgentSession await(String id, String what, Predicate<AgentSession> p) throws InterruptedException {
    return RealAgentWaits.await(model, sessions, id, what, p);
  }
}
