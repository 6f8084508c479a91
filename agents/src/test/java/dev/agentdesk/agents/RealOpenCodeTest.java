package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.parser.ErrorKind;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.testkit.OpenCodeHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real OpenCode (agents/real-agents.versions) in agent sessions on real PTYs, offline against
 * the scripted model server's Chat Completions (an {@code @ai-sdk/openai-compatible} provider:
 * {@link OpenCodeHome}): one server, one service and one repository for the class; each test its
 * own worktree and its own marker in the prompt.
 */
class RealOpenCodeTest {
  static final Duration WAIT = RealAgentWaits.WAIT;

  @TempDir static Path tmp;
  static ModelServer model;
  static OpenCodeHome opencode;
  static TestRepo repo;
  static AgentSessions sessions;

  @BeforeAll
  static void setUp() throws Exception {
    model = ModelServer.start();
    repo = TestRepo.create(tmp, "demo");
    opencode = new OpenCodeHome(tmp.resolve("home"), model.baseUrl(), true);
    sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("data/agents.db"), tmp.resolve("worktrees"),
        opencode.env(), Duration.ofSeconds(30), Duration.ofMillis(100), TerminalHost.direct()));
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
  void aPromptOnTheCommandLineIsAnsweredLinkedFromTheDatabaseAndCountedToTheToken() throws Exception {
    // twelve deltas 250 ms apart; OpenAI counts the 300 cached tokens inside the 1500 of the prompt
    model.add(Script.of("m-hello", Reply.text("Hello from the script, slowly, in twelve small pieces.")
        .withUsage(new Reply.Usage(1200, 34, 0, 300)).slow(Duration.ofMillis(250), 12)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.OPENCODE, repo.top).withWorktree("hello")
        .withPrompt("say hello m-hello"));
    assertThat(s.argv()).endsWith("--prompt", "say hello m-hello");

    // the argv agentdesk built is one this version runs; the configured key and model reach the server
    ModelRequest first = awaitRequest(s.id(), "m-hello", 0);
    assertThat(first.prompt()).contains("say hello m-hello");
    assertThat(first.header("authorization")).isEqualTo("Bearer " + OpenCodeHome.KEY);
    assertThat(first.model()).isEqualTo(OpenCodeHome.MODEL);
    assertThat(first.tools()).contains("bash", "read");
    AgentSession streaming = await(s.id(), "busy while the reply streams", x -> x.status().phase() == Phase.BUSY);
    assertThat(screen(streaming.id())).doesNotContain("small pieces.");

    // linked from opencode.db while it runs; the tokens are OpenCode's own record of the reply
    AgentSession done = await(s.id(), "the reply, linked and counted", x -> x.tokens() != null
        && x.tokens().output() == 34 && screen(x.id()).contains("in twelve small pieces.") && x.status().phase() == Phase.IDLE);
    assertThat(done.transcript().provider()).isEqualTo("opencode");
    assertThat(done.transcript().sessionId()).startsWith("ses_");
    assertThat(done.transcript().path()).hasToString(opencode.dataDir().resolve("opencode.db") + "#"
        + done.transcript().sessionId());
    assertThat(done.tokens()).isEqualTo(new TokenUsage(1200, 34, 300, 0, 0));
    Transcripts.FreshParse parsed = Transcripts.parse(Provider.OPENCODE, done.transcript().path());
    assertThat(parsed.unit().sessionId()).isEqualTo(done.transcript().sessionId());
    // OpenCode's own price of the reply, at the configured rates, is the session's recorded cost
    assertThat(parsed.detail().session().recordedCost().totalUsd()).isCloseTo((1200 * OpenCodeHome.PRICE_INPUT
        + 34 * OpenCodeHome.PRICE_OUTPUT + 300 * OpenCodeHome.PRICE_CACHE_READ) / 1e6, within(1e-12));
    assertThat(done.status().awaitingInput()).isFalse();
    // nothing but the model and the registry's stand-in was asked for (the plugin SDK, a 404)
    assertThat(model.requests()).allSatisfy(r -> assertThat(r.path()).matches("/v1/chat/completions|"
        + OpenCodeHome.REGISTRY + "@opencode-ai/plugin"));
  }

  @Test
  void thePermissionPromptIsAwaitingInputWithItsRealButtonsAndAllowOnceRunsTheCommand() throws Exception {
    model.add(Script.of("m-bash", Reply.tool("bash", "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}"),
        Reply.text("Wrote it.")));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.OPENCODE, repo.top).withWorktree("bash")
        .withPrompt("write a file m-bash"));

    AgentSession asking = await(s.id(), "the permission prompt", x -> x.status().choice() != null);
    assertThat(asking.status().phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(asking.status().question()).isEqualTo("Permission required: Shell command: $ echo hi > out.txt");
    assertThat(asking.status().choice().options()).extracting(PendingChoice.Option::label)
        .containsExactly("Allow once", "Allow always", "Reject");
    assertThat(asking.status().choice().across()).isTrue();
    assertThat(asking.worktree().resolve("out.txt")).doesNotExist();
    assertThatThrownBy(() -> sessions.answer(s.id(), 4)).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(AgentException.Reason.BAD_ANSWER);
    sessions.answer(s.id(), 1);

    awaitRequest(s.id(), "m-bash", 1);
    AgentSession done = await(s.id(), "the end of the turn", x -> screen(x.id()).contains("Wrote it.")
        && x.status().phase() == Phase.IDLE);
    assertThat(done.worktree().resolve("out.txt")).hasContent("hi");
    assertThat(done.status().choice()).isNull();
  }

  @Test
  void aRetried500IsOneServerErrorAndA429ARateLimitWithTheirWholeText() throws Exception {
    model.add(Script.ofSteps("m-e500", Step.of(new Reply.Failure(500, "server_error",
        "The server had an error while processing your request. Sorry about that!", Map.of()))));
    model.add(Script.ofSteps("m-e429", Step.of(new Reply.Failure(429, "requests", "Rate limit reached for requests",
        Map.of()))));
    // two sessions at once (OpenCode retries without end, so each failure has a session of its own)
    AgentSession s = sessions.start(AgentSpec.of(AgentType.OPENCODE, repo.top).withWorktree("errors")
        .withPrompt("go m-e500"));
    AgentSession t = sessions.start(AgentSpec.of(AgentType.OPENCODE, repo.top).withWorktree("limited")
        .withPrompt("go m-e429"));
    List<ParsedEvent> reported = new CopyOnWriteArrayList<>();
    for (AgentSession x : List.of(s, t)) {
      sessions.terminal(x.id()).orElseThrow().addListener(new SessionListener() {
        @Override
        public void onEvent(SessionEvent e) {
          if (e instanceof SessionEvent.Parsed p
              && (p.event() instanceof ParsedEvent.RateLimit || p.event() instanceof ParsedEvent.ApiError)) {
            reported.add(p.event());
          }
        }
      });
    }
    AgentSession failing = await(s.id(), "the 500", x -> x.terminal() != null && x.terminal().lastApiError() != null);
    assertThat(failing.terminal().lastApiError())
        .isEqualTo("The server had an error while processing your request. Sorry about that!");
    assertThat(failing.terminal().lastApiErrorKind()).isEqualTo("server");
    assertThat(failing.status().phase()).isNotEqualTo(Phase.RATE_LIMITED);

    AgentSession limited = await(t.id(), "the 429", x -> x.status().phase() == Phase.RATE_LIMITED);
    assertThat(limited.terminal().rateLimitText()).isEqualTo("Rate limit reached for requests");
    assertThat(limited.terminal().lastApiError()).isEqualTo("Rate limit reached for requests");
    // the next attempts redraw the row with new counts: the same limit, the same error
    awaitRequests("m-e429", 3);
    awaitRequests("m-e500", 3);
    assertThat(sessions.get(t.id()).terminal().rateLimitText()).isEqualTo("Rate limit reached for requests");
    assertThat(sessions.get(s.id()).terminal().lastApiError())
        .isEqualTo("The server had an error while processing your request. Sorry about that!");
    assertThat(reported).containsExactlyInAnyOrder(
        new ParsedEvent.ApiError("opencode-api-retry",
            "The server had an error while processing your request. Sorry about that!", ErrorKind.SERVER),
        reported.stream().filter(ParsedEvent.RateLimit.class::isInstance).findFirst().orElseThrow());
    assertThat(reported).filteredOn(ParsedEvent.RateLimit.class::isInstance).singleElement()
        .extracting(e -> ((ParsedEvent.RateLimit) e).matchedText()).isEqualTo("Rate limit reached for requests");
    sessions.stop(s.id());
    sessions.stop(t.id());
  }

  @Test
  void stopEndsOpenCodeByItsOwnExitAndLeavesNoProcessBehind() throws Exception {
    model.add(Script.of("m-stop", Reply.text("Still talking, slowly.").slow(Duration.ofMillis(500), 20)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.OPENCODE, repo.top).withWorktree("stop")
        .withPrompt("talk m-stop"));
    awaitRequest(s.id(), "m-stop", 0);
    await(s.id(), "busy and linked", x -> x.status().phase() == Phase.BUSY && x.transcript() != null);
    long pid = sessions.terminal(s.id()).orElseThrow().pid();
    ProcessHandle agent = ProcessHandle.of(pid).orElseThrow();
    List<ProcessHandle> tree = agent.descendants().toList();

    long before = System.nanoTime();
    AgentSession stopped = sessions.stop(s.id());
    long stopMs = (System.nanoTime() - before) / 1_000_000;
    assertThat(stopped.lifecycle()).isEqualTo(Lifecycle.ENDED);
    assertThat(stopMs).as("stopped by its exit key, not after TERM").isLessThan(2_500);
    assertThat(agent.isAlive()).isFalse();
    assertThat(tree).noneMatch(ProcessHandle::isAlive);

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("--session", stopped.transcript().sessionId());
    await(s.id(), "the old conversation", x -> screen(x.id()).contains("talk m-stop"));
    sessions.stop(s.id());
  }

  // ---- helpers ----

  static String screen(String id) {
    return RealAgentWaits.screen(sessions, id);
  }

  /** The first request of step {@code step} of script {@code marker}, failing with the agent's screen. */
  static ModelRequest awaitRequest(String id, String marker, int step) throws InterruptedException {
    return RealAgentWaits.awaitRequest(model, sessions, id, marker, step, 1);
  }

  static void awaitRequests(String marker, int count) throws InterruptedException {
    Standins.await(count + " requests of " + marker, WAIT, () -> model.requestsFor(marker).size() >= count);
  }

  static AgentSession await(String id, String what, Predicate<AgentSession> p) throws InterruptedException {
    return RealAgentWaits.await(model, sessions, id, what, p);
  }
}
