package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.session.PendingChoice;
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
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Copilot CLI (agents/real-agents.versions) in agent sessions on real PTYs, offline
 * against the scripted model server, which it reaches as an OpenAI Chat Completions provider
 * (BYOK: {@code COPILOT_OFFLINE}, {@code COPILOT_PROVIDER_BASE_URL}, {@code COPILOT_MODEL}; no
 * GitHub login). One server, one service and one repository for the class; each test its own
 * worktree and marker.
 */
class RealCopilotTest {
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static TestRepo repo;
  /** A repository trusted up front: Copilot asks about (and records) a worktree's main checkout. */
  static TestRepo trusted;
  static AgentSessions sessions;
  static Path home;

  @BeforeAll
  static void setUp() throws Exception {
    RealAgents.Pin pin = RealAgents.require("copilot");
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    trusted = TestRepo.create(tmp, "trusted");
    Path root = tmp.resolve("worktrees");
    home = Files.createDirectories(tmp.resolve("home"));
    // As "Yes, and remember" records it.
    Files.createDirectories(home.resolve(".copilot"));
    Files.writeString(home.resolve(".copilot/config.json"), "{\"trustedFolders\":[\"" + trusted.top + "\"]}\n");
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("COPILOT_OFFLINE", "true");
    env.put("COPILOT_AUTO_UPDATE", "false");
    env.put("COPILOT_PROVIDER_BASE_URL", model.baseUrl() + "/v1");
    env.put("COPILOT_PROVIDER_API_KEY", "sk-scripted");
    env.put("COPILOT_MODEL", "gpt-4.1");
    env.put("TERM", "xterm-256color");
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), root, env,
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
  void theTrustDialogAndTheApprovalAreAnsweredLiveTokensCountEachResponseAndStopLeavesNothing() throws Exception {
    model.add(Script.of("m-bash",
        Reply.tool("bash", "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}")
            .withUsage(new Reply.Usage(1200, 30, 0, 400)),
        Reply.text("Wrote it.").withUsage(new Reply.Usage(300, 12, 0, 1000))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.COPILOT, repo.top).withWorktree("trust")
        .withPrompt("write a file m-bash"));

    AgentSession trust = await(s.id(), "the trust dialog", x -> x.status().choice() != null
        && x.status().choice().title().equals("Do you trust the files in this folder?"));
    assertThat(trust.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(trust.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Yes", "Yes, and remember this folder for future sessions", "No");
    assertThatThrownBy(() -> sessions.answer(s.id(), 4)).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(AgentException.Reason.BAD_ANSWER);
    sessions.answer(s.id(), 2);

    // the argv agentdesk built (-i <prompt>) runs once the folder is trusted
    ModelRequest first = awaitRequest(s.id(), "m-bash", 0);
    assertThat(first.path()).isEqualTo("/v1/chat/completions");
    assertThat(first.header("authorization")).isEqualTo("Bearer sk-scripted");
    // the folder remembered is the worktree's main checkout
    assertThat(Files.readString(home.resolve(".copilot/config.json"))).contains("\"" + repo.top + "\"");

    AgentSession approval = await(s.id(), "the approval", x -> x.status().choice() != null
        && x.status().choice().title().equals("Do you want to run this command?"));
    assertThat(approval.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(approval.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Yes", "No, and tell Copilot what to do differently (Esc to stop)");
    assertThat(approval.worktree().resolve("out.txt")).doesNotExist();
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "m-bash", 1);
    // live, before any shutdown: each response's usage record, exactly (input without the cached part)
    TokenUsage both = new TokenUsage(1200 + 300, 30 + 12, 400 + 1000, 0, 0);
    AgentSession done = await(s.id(), "the reply, counted live", x -> screen(x.id()).contains("Wrote it.")
        && both.equals(x.tokens()) && x.status().phase() == Phase.IDLE);
    assertThat(done.worktree().resolve("out.txt")).hasContent("hi");
    assertThat(done.transcript().path().getFileName()).hasToString("events.jsonl");
    assertThat(Files.readString(done.transcript().path())).doesNotContain("session.shutdown");

    assertThat(Processes.workingIn(s.worktree())).isNotEmpty();
    AgentSession stopped = sessions.stop(s.id());
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    Standins.await("every process in the worktree ended, now " + Processes.workingIn(s.worktree()), WAIT,
        () -> Processes.workingIn(s.worktree()).isEmpty());
    // its own exit wrote the run's totals; they are not counted on top of the records
    assertThat(Files.readString(stopped.transcript().path())).contains("\"session.shutdown\"");
    AgentSession after = await(s.id(), "the totals after the shutdown", x -> x.transcriptBytesRead()
        == size(x.transcript().path()));
    assertThat(after.tokens()).isEqualTo(both);
  }

  @Test
  void limitsAndErrorsAreReportedWithTheirWholeText() throws Exception {
    model.add(Script.ofSteps("m-429r", Step.of(new Reply.Failure(429, "rate_limit_error",
        "Rate limit reached for requests", Map.of("retry-after", "1")))));
    model.add(Script.ofSteps("m-e500", Step.of(new Reply.Failure(500, "api_error", "Internal server error",
        Map.of("x-should-retry", "false")))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.COPILOT, trusted.top).withWorktree("errors")
        .withPrompt("go m-429r").withSize(140, 36));

    AgentSession limited = await(s.id(), "the limit once the retries are spent",
        x -> x.status().phase() == Phase.RATE_LIMITED);
    assertThat(limited.terminal().rateLimitText()).matches("Failed to get response from the AI model; retried \\d+ "
        + "times \\(total retry wait time: [\\d.]+ seconds\\) Last error: 429 Rate limit reached for requests");
    assertThat(limited.terminal().lastApiError()).isEqualTo(limited.terminal().rateLimitText());
    assertThat(model.requests().stream().filter(r -> "m-429r".equals(r.script())).count()).isGreaterThan(1);

    sessions.send(s.id(), "again m-e500");
    AgentSession failed = await(s.id(), "the 500", x -> x.terminal().lastApiError() != null
        && x.terminal().lastApiError().startsWith("500"));
    assertThat(failed.terminal().lastApiError()).isEqualTo("500 Internal server error");
    assertThat(failed.terminal().lastApiErrorKind()).isEqualTo("server");
    sessions.stop(s.id());
    Standins.await("every process in the worktree ended", WAIT, () -> Processes.workingIn(s.worktree()).isEmpty());
  }

  @Test
  void resumeRunsTheSameSessionAgainAndTheLinkAndTokensGoOn() throws Exception {
    model.add(Script.of("m-before", Reply.text("Before the stop.").withUsage(new Reply.Usage(400, 9, 0, 100))));
    model.add(Script.of("m-after", Reply.text("After the resume.").withUsage(new Reply.Usage(600, 6, 0, 300))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.COPILOT, trusted.top).withWorktree("resume")
        .withPrompt("first m-before"));
    TokenUsage first = new TokenUsage(400, 9, 100, 0, 0);
    AgentSession linked = await(s.id(), "the first turn, linked and counted", x -> x.transcript() != null
        && first.equals(x.tokens()) && screen(x.id()).contains("Before the stop.") && x.status().phase() == Phase.IDLE);
    AgentSession stopped = sessions.stop(s.id());
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    Standins.await("every process in the worktree ended", WAIT, () -> Processes.workingIn(s.worktree()).isEmpty());

    AgentSession resumed = sessions.resume(s.id());
    // --resume takes an optional value (alone it opens a picker); 1.0.102 takes the id as the next token
    assertThat(resumed.argv()).containsSubsequence("--resume", linked.transcript().sessionId())
        .doesNotContain("--interactive");
    await(s.id(), "the redrawn past", x -> screen(x.id()).contains("Before the stop.") && x.status().phase() == Phase.IDLE);
    sessions.send(s.id(), "then m-after");

    // the same session goes on: the resumed request carries the earlier conversation
    ModelRequest after = awaitRequest(s.id(), "m-after", 0);
    assertThat(after.body()).contains("first m-before").contains("Before the stop.");
    TokenUsage both = new TokenUsage(400 + 600, 9 + 6, 100 + 300, 0, 0);
    AgentSession more = await(s.id(), "the resumed turn, in the same file, counted", x -> both.equals(x.tokens())
        && screen(x.id()).contains("After the resume.") && x.status().phase() == Phase.IDLE);
    assertThat(more.transcript()).isEqualTo(linked.transcript());
    assertThat(Files.readString(more.transcript().path())).contains("After the resume.");
    sessions.stop(s.id());
    Standins.await("every process in the worktree ended", WAIT, () -> Processes.workingIn(s.worktree()).isEmpty());
  }

  // ---- helpers ----

  static long size(Path p) {
    try {
      return Files.size(p);
    } catch (java.io.IOException e) {
      return -1;
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
