package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
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
  static final List<String> WORKTREES = List.of("hello");
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir static Path tmp;
  static ModelServer model;
  static RealClaude claude;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    Path root = tmp.resolve("worktrees");
    claude = new RealClaude(tmp.resolve("home"))
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
    model.add(Script.of("m-hello", Reply.text("Hello from the script.").withUsage(new Reply.Usage(1200, 34, 500, 66))));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("hello")
        .withPrompt("say hello m-hello"));

    // the argv agentdesk built (--session-id <uuid>, the prompt last) is one this version runs
    ModelRequest first = awaitRequest(s.id(), "m-hello", 0);
    assertThat(first.prompt()).contains("say hello m-hello");
    assertThat(first.header("x-api-key")).isEqualTo(RealClaude.KEY);

    AgentSession done = await(s.id(), "the reply, linked and counted", x -> x.tokens() != null
        && x.tokens().output() == 34 && screen(x.id()).contains("Hello from the script.") && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().sessionId()).isEqualTo(s.launchId());
    assertThat(done.transcript().path().getFileName()).hasToString(s.launchId() + ".jsonl");
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 66, 500, 0));
    assertThat(done.status().awaitingInput()).isFalse();
  }

  // ---- helpers ----

  static String screen(String id) {
    return sessions.terminal(id).map(t -> String.join("\n", t.screen().lines())).orElse("(not running)");
  }

  /** The first request of step {@code step} of script {@code marker}, failing with the agent's screen. */
  static ModelRequest awaitRequest(String id, String marker, int step) throws InterruptedException {
    try {
      return model.await(marker + " step " + step, r -> marker.equals(r.script()) && r.step() == step, WAIT);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e.getMessage() + "\nscreen:\n" + screen(id) + "\nrequests: " + model.requests().stream()
          .map(r -> r.method() + " " + r.path() + " tools=" + r.tools().size() + " script=" + r.script()).toList());
    }
  }

  static AgentSession await(String id, String what, Predicate<AgentSession> p) throws InterruptedException {
    AgentSession[] last = new AgentSession[1];
    try {
      Standins.await(what, WAIT, () -> p.test(last[0] = sessions.get(id)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last: " + last[0] + "\nscreen:\n" + screen(id)
          + "\nrequests: " + Stream.of(model.requests().toArray()).count(), e);
    }
    return last[0];
  }
}
