package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.testkit.Processes;
import dev.agentdesk.testkit.RealAgents;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real pi (agents/real-agents.versions) as the {@code pi} agent type in agent sessions on real
 * PTYs, offline against the scripted model server: a provider of its {@code models.json} that
 * speaks OpenAI Chat Completions to the server. One server, one service and one repository for
 * the class; each test its own worktree and marker.
 */
class RealPiTest {
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    RealAgents.Pin pin = RealAgents.require("pi");
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path agentDir = Files.createDirectories(home.resolve("agent"));
    Files.writeString(agentDir.resolve("models.json"), "{\"providers\":{\"scripted\":{\"baseUrl\":\"" + model.baseUrl()
        + "/v1\",\"api\":\"openai-completions\",\"apiKey\":\"sk-scripted\",\"compat\":{\"supportsDeveloperRole\":false,"
        + "\"supportsReasoningEffort\":false},\"models\":[{\"id\":\"gpt-4.1\",\"reasoning\":false}]}}}\n");
    // The scripted provider by default; agent-level retries quick and no SDK retries, so a spent retry takes
    // well under a second; the changelog of this version already seen.
    Files.writeString(agentDir.resolve("settings.json"), "{\"defaultProvider\":\"scripted\",\"defaultModel\":\"gpt-4.1\","
        + "\"lastChangelogVersion\":\"" + pin.version() + "\",\"enableInstallTelemetry\":false,"
        + "\"retry\":{\"baseDelayMs\":100,\"provider\":{\"maxRetries\":0}}}\n");
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("PI_CODING_AGENT_DIR", agentDir.toString());
    env.put("PI_OFFLINE", "1");
    env.put("TERM", "xterm-256color");
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), tmp.resolve("worktrees"), env,
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
  void aPromptIsAnsweredLinkedAndCountedItsToolRunsAndStopAndResumeWork() throws Exception {
    model.add(Script.of("m-hello", Reply.text("Hello from the script, slowly, in twelve small pieces.")
        .withUsage(new Reply.Usage(1200, 34, 0, 500)).slow(Duration.ofMillis(250), 12)));
    model.add(Script.of("m-bash", Reply.tool("bash", "{\"command\":\"echo hi > out.txt\"}")
        .withUsage(new Reply.Usage(300, 20, 0, 0)), Reply.text("Wrote it.").withUsage(new Reply.Usage(400, 6, 0, 100))));
    model.add(Script.of("m-again", Reply.text("Back again.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.PI, repo.top).withWorktree("hello")
        .withPrompt("say hello m-hello"));
    assertThat(s.argv()).endsWith("say hello m-hello");

    ModelRequest first = awaitRequest(s.id(), "m-hello", 0);
    assertThat(first.path()).isEqualTo("/v1/chat/completions");
    assertThat(first.header("authorization")).isEqualTo("Bearer sk-scripted");
    AgentSession streaming = await(s.id(), "busy while the reply streams", x -> x.status().phase() == Phase.BUSY);
    assertThat(screen(streaming.id())).doesNotContain("small pieces.");
    AgentSession done = await(s.id(), "the reply, linked and counted", x -> screen(x.id()).contains("small pieces.")
        && x.tokens() != null && x.tokens().output() == 34 && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().path().getFileName().toString()).endsWith("_" + done.transcript().sessionId() + ".jsonl");
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 500, 0, 0));

    // pi asks nothing before it runs a command
    sessions.send(s.id(), "write a file m-bash");
    awaitRequest(s.id(), "m-bash", 1);
    AgentSession wrote = await(s.id(), "the command's turn, counted", x -> screen(x.id()).contains("Wrote it.")
        && x.tokens() != null && x.tokens().output() == 34 + 20 + 6 && x.status().phase() == Phase.IDLE);
    assertThat(wrote.worktree().resolve("out.txt")).hasContent("hi");
    assertThat(wrote.tokens()).isEqualTo(new TokenUsage(1200 + 300 + 400, 60, 600, 0, 0));
    assertThat(wrote.status().awaitingInput()).isFalse();

    assertThat(Processes.workingIn(s.worktree())).isNotEmpty();
    long before = System.nanoTime();
    AgentSession stopped = sessions.stop(s.id());
    long stopMs = (System.nanoTime() - before) / 1_000_000;
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    Standins.await("every process in the worktree ended", WAIT, () -> Processes.workingIn(s.worktree()).isEmpty());
    assertThat(stopMs).as("stopped by its exit keys, not after TERM").isLessThan(2_500);

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("--session", done.transcript().sessionId());
    await(s.id(), "the redrawn conversation", x -> screen(x.id()).contains("Wrote it.") && x.status().phase() == Phase.IDLE);
    sessions.send(s.id(), "once more m-again");
    ModelRequest again = awaitRequest(s.id(), "m-again", 0);
    assertThat(again.body()).contains("say hello m-hello");
    AgentSession back = await(s.id(), "the resumed reply", x -> screen(x.id()).contains("Back again.")
        && x.status().phase() == Phase.IDLE);
    assertThat(back.transcript().sessionId()).isEqualTo(done.transcript().sessionId());
    sessions.stop(s.id());
  }

  @Test
  void limitsAndErrorsAreReportedWithTheirWholeText() throws Exception {
    model.add(Script.ofSteps("m-429", Step.of(new Reply.Failure(429, "rate_limit_error",
        "Rate limit reached for requests", Map.of()))));
    model.add(Script.ofSteps("m-e500", Step.of(new Reply.Failure(500, "api_error", "Internal server error", Map.of()))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.PI, repo.top).withWorktree("errors")
        .withPrompt("go m-429"));

    AgentSession limited = await(s.id(), "the limit once the retries are spent", x -> x.status().phase()
        == Phase.RATE_LIMITED && "Error: Retry failed after 3 attempts: 429 Rate limit reached for requests"
        .equals(x.terminal().rateLimitText()));
    assertThat(limited.terminal().lastApiError()).isEqualTo(limited.terminal().rateLimitText());

    sessions.send(s.id(), "again m-e500");
    AgentSession failed = await(s.id(), "the 500 once the retries are spent", x -> x.terminal().lastApiError() != null
        && x.terminal().lastApiError().equals("Error: Retry failed after 3 attempts: 500 Internal server error"));
    assertThat(failed.terminal().lastApiErrorKind()).isEqualTo("server");
    assertThat(failed.status().phase()).isNotEqualTo(Phase.RATE_LIMITED);
    sessions.stop(s.id());
    Standins.await("every process in the worktree ended", WAIT, () -> Processes.workingIn(s.worktree()).isEmpty());
  }

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
