package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.transcripts.records.TokenUsage;
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
 * The real Claude Code (agents/real-agents.versions) in agent sessions on real PTYs, against the
 * scripted model server: one server, one service and one repository for the class; each test its
 * own worktree and its own marker in the prompt, so the scripts never meet.
 */
class RealClaudeTest {
  /** Worktrees the tests use; each is trusted up front in Claude's configuration. */
  static final List<String> WORKTREES = List.of("hello", "ask", "errors", "resume");
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static ClaudeCodeHome claude;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    Path root = tmp.resolve("worktrees");
    claude = new ClaudeCodeHome(tmp.resolve("home"))
        .onboarded(WORKTREES.stream().map(n -> root.resolve("demo").resolve(n)).toList());
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), root,
        claude.env(model.baseUrl()), Duration.ofSeconds(30), Duration.ofMillis(100), TerminalHost.direct()));
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
    // a slow stream: twelve deltas 250 ms apart, so the reply takes three seconds to arrive
    model.add(Script.of("m-hello", Reply.text("Hello from the script, slowly, in twelve small pieces.")
        .withUsage(new Reply.Usage(1200, 34, 500, 66)).slow(Duration.ofMillis(250), 12)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("hello")
        .withPrompt("say hello m-hello"));

    // the argv agentdesk built (--session-id <uuid>, the prompt last) is one this version runs
    ModelRequest first = awaitRequest(s.id(), "m-hello", 0);
    assertThat(first.prompt()).contains("say hello m-hello");
    assertThat(first.header("x-api-key")).isEqualTo(ClaudeCodeHome.KEY);
    AgentSession streaming = await(s.id(), "busy while the reply streams", x -> x.status().phase() == Phase.BUSY);
    assertThat(screen(streaming.id())).doesNotContain("small pieces.");

    AgentSession done = await(s.id(), "the reply, linked and counted", x -> x.tokens() != null
        && x.tokens().output() == 34 && screen(x.id()).contains("in twelve small pieces.") && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().sessionId()).isEqualTo(s.launchId());
    assertThat(done.transcript().path().getFileName()).hasToString(s.launchId() + ".jsonl");
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 66, 500, 0));
    assertThat(done.status().awaitingInput()).isFalse();
  }

  @Test
  void aNewUsersFirstScreensAreMenusAndPausesAnsweredThroughTheApi() throws Exception {
    model.add(Script.of("m-first", Reply.text("Welcome aboard.")));
    ClaudeCodeHome newUser = new ClaudeCodeHome(tmp.resolve("new-user")).firstRun();
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("first")
        .withPrompt("hi m-first").withEnv("HOME", newUser.home().toString())
        .withEnv("CLAUDE_CONFIG_DIR", newUser.configDir().toString()));

    AgentSession theme = await(s.id(), "the theme picker", x -> x.status().choice() != null
        && x.status().choice().title().startsWith("Choose the text style"));
    assertThat(theme.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(theme.status().choice().numbered()).isFalse();
    assertThat(theme.status().choice().options()).extracting(PendingChoice.Option::label)
        .startsWith("Auto (match terminal)", "Dark mode", "Light mode").hasSize(7);
    sessions.answer(s.id(), 3);

    AgentSession notes = await(s.id(), "the security notes", x -> x.status().awaitingInput()
        && "Security notes: Press Enter to continue".equals(x.status().question()));
    assertThat(notes.status().choice()).isNull();
    sessions.sendKey(s.id(), "enter");

    AgentSession trust = await(s.id(), "the trust dialog", x -> x.status().choice() != null
        && x.status().choice().title().contains("Is this a project you created or one you trust?"));
    assertThat(trust.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("No, exit", "Yes, I trust this folder");
    assertThatThrownBy(() -> sessions.answer(s.id(), 3)).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(AgentException.Reason.BAD_ANSWER);
    sessions.answer(s.id(), 2);

    awaitRequest(s.id(), "m-first", 0);
    await(s.id(), "the reply", x -> screen(x.id()).contains("Welcome aboard.") && x.status().phase() == Phase.IDLE);
    // option 3 of the picker was Light mode; the trust was recorded
    assertThat(Files.readString(newUser.configDir().resolve("settings.json")) + Files.readString(
        newUser.configDir().resolve(".claude.json"))).containsPattern("\"theme\": ?\"light\"");
    assertThat(Files.readString(newUser.configDir().resolve(".claude.json"))).contains("\"hasTrustDialogAccepted\": true");
    sessions.forget(s.id());
  }

  @Test
  void askUserQuestionAndThePermissionPromptShowTheirRealOptionsAndTakeAnswers() throws Exception {
    model.add(Script.of("m-ask",
        Reply.tool("AskUserQuestion", "{\"questions\":[{\"question\":\"Which color should the button be?\","
            + "\"header\":\"Color\",\"multiSelect\":false,\"options\":[{\"label\":\"Red\",\"description\":"
            + "\"A red button\"},{\"label\":\"Blue\",\"description\":\"A blue button\"}]}]}"),
        Reply.tool("Bash", "{\"command\":\"echo blue > color.txt\",\"description\":\"Write the color\"}"),
        Reply.tool("Write", "{\"file_path\":\"" + tmp.resolve("worktrees/demo/ask/notes.md")
            + "\",\"content\":\"# Blue\\n\"}"),
        Reply.text("The button is blue.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("ask")
        .withPrompt("pick a color m-ask"));

    AgentSession asking = await(s.id(), "the question menu", x -> x.status().choice() != null
        && x.status().choice().title().equals("Which color should the button be?"));
    assertThat(asking.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(asking.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Red", "Blue", "Type something.", "Chat about this");
    assertThat(asking.status().choice().options()).extracting(PendingChoice.Option::description)
        .containsExactly("A red button", "A blue button", null, null);
    sessions.answer(s.id(), 2);

    ModelRequest answered = awaitRequest(s.id(), "m-ask", 1);
    assertThat(answered.body()).contains("Blue");
    AgentSession permission = await(s.id(), "the permission prompt", x -> x.status().choice() != null
        && x.status().choice().title().equals("Do you want to proceed?"));
    assertThat(permission.status().choice().options()).extracting(PendingChoice.Option::label).startsWith("Yes")
        .endsWith("No").hasSize(4);
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "m-ask", 2);
    AgentSession create = await(s.id(), "the file prompt", x -> x.status().choice() != null
        && x.status().choice().title().equals("Do you want to create notes.md?"));
    assertThat(create.status().choice().options()).extracting(PendingChoice.Option::label).startsWith("Yes").endsWith("No")
        .hasSize(3);
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "m-ask", 3);
    AgentSession done = await(s.id(), "the end of the turn", x -> screen(x.id()).contains("The button is blue.")
        && x.status().phase() == Phase.IDLE);
    assertThat(done.worktree().resolve("color.txt")).hasContent("blue");
    assertThat(done.worktree().resolve("notes.md")).hasContent("# Blue");
  }

  @Test
  void retriesLimitsAndErrorsAreReportedWithTheirWholeText() throws Exception {
    Reply.Failure throttled = new Reply.Failure(429, "rate_limit_error", "slow down", Map.of("retry-after", "1"));
    model.add(Script.ofSteps("m-retry", Step.retried(throttled, 1, Reply.text("Recovered after a retry."))));
    model.add(Script.ofSteps("m-hard429", Step.of(new Reply.Failure(429, "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit", NO_RETRY))));
    model.add(Script.ofSteps("m-e529", Step.of(new Reply.Failure(529, "overloaded_error", "Overloaded", NO_RETRY))));
    model.add(Script.ofSteps("m-e401", Step.of(new Reply.Failure(401, "authentication_error", "invalid x-api-key",
        NO_RETRY))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("errors")
        .withPrompt("go m-retry"));

    AgentSession retrying = await(s.id(), "the retry", x -> x.terminal() != null && x.terminal().lastApiError() != null);
    assertThat(retrying.terminal().lastApiError()).matches("API error · retrying in \\d+s · attempt 1/\\d+");
    await(s.id(), "the recovery", x -> screen(x.id()).contains("Recovered after a retry.") && x.status().phase() == Phase.IDLE);

    sessions.send(s.id(), "again m-hard429");
    AgentSession limited = await(s.id(), "the hard limit", x -> x.status().phase() == Phase.RATE_LIMITED);
    assertThat(limited.terminal().rateLimitText()).isEqualTo(
        "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit");
    assertThat(limited.terminal().lastApiError()).isEqualTo(limited.terminal().rateLimitText());
    assertThat(limited.terminal().rateLimitedUntilMs()).isNull();

    sessions.send(s.id(), "again m-e529");
    AgentSession overloaded = await(s.id(), "the 529", x -> x.terminal().lastApiError() != null
        && x.terminal().lastApiError().startsWith("API Error: 529"));
    assertThat(overloaded.terminal().lastApiError()).endsWith("If it persists, check your inference gateway ("
        + model.baseUrl().substring("http://".length()) + ").");
    assertThat(overloaded.terminal().lastApiErrorKind()).isEqualTo("server");
    assertThat(overloaded.status().phase()).isNotEqualTo(Phase.RATE_LIMITED);

    sessions.send(s.id(), "again m-e401");
    AgentSession unauthorised = await(s.id(), "the 401", x -> "auth".equals(x.terminal().lastApiErrorKind()));
    assertThat(unauthorised.terminal().lastApiError()).isEqualTo("Invalid API key · Fix external API key");
  }

  @Test
  void stopLetsClaudeWriteItsExitRecordAndResumeDoesNotReportThePastAgain() throws Exception {
    model.add(Script.ofSteps("m-old429", Step.of(new Reply.Failure(429, "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit", NO_RETRY))));
    model.add(Script.ofSteps("m-old500", Step.of(new Reply.Failure(500, "api_error", "Internal server error", NO_RETRY))));
    model.add(Script.ofSteps("m-new500", Step.of(new Reply.Failure(500, "api_error", "Fresh failure", NO_RETRY))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("resume")
        .withPrompt("first m-old429"));
    await(s.id(), "the old limit", x -> x.status().phase() == Phase.RATE_LIMITED);
    sessions.send(s.id(), "then m-old500");
    await(s.id(), "the old error", x -> x.terminal().lastApiError() != null
        && x.terminal().lastApiError().startsWith("API Error: 500") && x.transcript() != null);

    long before = System.nanoTime();
    AgentSession stopped = sessions.stop(s.id());
    long stopMs = (System.nanoTime() - before) / 1_000_000;
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    // its own exit: Claude wrote its cost-state record and called the shutdown graceful
    List<String> lines = Files.readAllLines(stopped.transcript().path());
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("{\"type\":\"cost-state\""));
    assertThat(Files.readString(claude.configDir().resolve(".claude.json"))).contains("\"lastGracefulShutdown\": true");
    assertThat(stopMs).as("stopped by its exit keys, not after TERM").isLessThan(2_500);

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("--resume", s.launchId());
    // the old conversation is redrawn, errors and all, and the output settles
    await(s.id(), "the redrawn past", x -> screen(x.id()).contains("Request rejected (429)")
        && screen(x.id()).contains("API Error: 500") && x.status().phase() == Phase.IDLE);
    AgentSession quiet = sessions.get(s.id());
    assertThat(quiet.terminal().lastApiError()).isNull();
    assertThat(quiet.terminal().rateLimitText()).isNull();

    sessions.send(s.id(), "now m-new500");
    AgentSession fresh = await(s.id(), "a new error", x -> x.terminal().lastApiError() != null);
    // the whole message across Claude's wrap, its second row included
    assertThat(fresh.terminal().lastApiError()).isEqualTo("API Error: 500 Fresh failure. This is a server-side issue,"
        + " usually temporary — try again in a moment. If it persists, check your inference gateway ("
        + model.baseUrl().substring("http://".length()) + ").");
    assertThat(fresh.terminal().lastApiErrorKind()).isEqualTo("server");
  }

  static final Map<String, String> NO_RETRY = Map.of("x-should-retry", "false");

  // ---- helpers ----

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
