package dev.agentdesk.app.serve.agents;

import dev.agentdesk.agents.AgentException;
import dev.agentdesk.agents.AgentSession;
import dev.agentdesk.agents.AgentSessions;
import dev.agentdesk.agents.AgentSpec;
import dev.agentdesk.agents.AgentType;
import dev.agentdesk.agents.MergeResult;
import dev.agentdesk.agents.TranscriptLink;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.app.serve.notifications.NotificationsArea;
import dev.agentdesk.app.serve.terminals.TerminalsArea;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Agent sessions over HTTP: {@code /api/agents}. The orchestration is the agents module's; this
 * area turns requests into {@link AgentSessions} calls, its records into the API's JSON
 * ({@link AgentJson}), its typed errors into API errors, and its events into {@code /ws/events}.
 * Agents run in the server's own terminals, so each one is also on the Terminals page and its
 * terminal socket works as any other.
 */
public final class AgentsArea implements ApiArea {
  private final AgentSessions agents;
  private final TerminalsArea terminals;
  private final EventHub events;
  private final NotificationsArea notifications;
  /** A transcript session's cost from the history: ours and the agent's own, each null while unknown. */
  private final Function<String, AgentCost> costOfSession;
  /**
   * The last cost read per transcript session. Agent JSON is built on every terminal state change,
   * on the PTY's event thread, which must never wait for the history's lock or a transcript parse:
   * JSON takes what is here, and a stale or missing entry is (re)read on {@link #costReader}, at
   * most once per {@link #COST_TTL_MS}; a changed figure is published as an agent event.
   */
  private final Map<String, Cost> costs = new java.util.concurrent.ConcurrentHashMap<>();
  private static final long COST_TTL_MS = 5_000;

  private record Cost(AgentCost costs, long readAtMs) {}

  /** Reads costs off the PTY and request threads; one at a time, so the history sees no burst. */
  private final java.util.concurrent.ExecutorService costReader = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "agent-costs");
    t.setDaemon(true);
    return t;
  });
  /** Transcript sessions whose cost is being read: one read each at a time. */
  private final java.util.Set<String> costsReading = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** The linked transcript's own cost, priced with the history's price table (read once). */
  private final TranscriptCost transcriptCost = new TranscriptCost(
      () -> dev.agentdesk.transcripts.cost.PriceFiles.fromEnvironment().load().table());

  /**
   * @param dataDir agents.db goes here, and worktrees under {@code worktrees/} unless {@code
   *     AGENTDESK_WORKTREE_ROOT} names another folder
   * @param env the environment agents start with (PATH finds their CLIs; HOME their transcripts)
   * @param costOfSession the history's cost of a transcript session (in dollars at its prices, and as the
   *     agent recorded it), each null while unknown or unpriced
   * @param notifications gets every session's state (notifications, auto-resume) and input
   */
  public AgentsArea(Path dataDir, Map<String, String> env, EventHub events, TerminalsArea terminals,
      Function<String, AgentCost> costOfSession, NotificationsArea notifications) {
    this.terminals = terminals;
    this.notifications = notifications;
    this.costOfSession = costOfSession;
    this.events = events;
    String root = env.get("AGENTDESK_WORKTREE_ROOT");
    Path worktrees = root != null && !root.isBlank() ? Path.of(root) : dataDir.resolve("worktrees");
    AgentSessions.Config config = new AgentSessions.Config(dataDir.resolve("agents.db"), worktrees, env,
        Duration.ofSeconds(60), Duration.ofMillis(250), terminals.host());
    this.agents = AgentSessions.open(config);
    agents.addListener(e -> {
      if (e instanceof dev.agentdesk.agents.AgentEvent.Changed c) {
        events.publish(new ServerEvent.AgentChanged(json(c.session())));
        notifications.observeAgent(c.session());
      } else if (e instanceof dev.agentdesk.agents.AgentEvent.Removed r) {
        events.publish(new ServerEvent.AgentRemoved(r.id()));
        notifications.forget(r.id());
      }
    });
  }

  /** {@code POST /api/agents}; {@code auto_resume} turns auto-resume on (or off) for this session. */
  public record NewAgent(String agent, String repo, String worktree, Boolean in_place, String base, String prompt,
      String command, List<String> args, Integer cols, Integer rows, Boolean auto_resume) {}

  /** {@code POST /api/agents/{id}/input}: one of text (typed, then Enter), key, or answer. */
  public record Input(String text, String key, Integer answer) {}

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/agents", ctx -> ctx.json(list()));
    r.post("/api/agents", ctx -> ctx.status(201).json(start(Json.read(ctx.body(), NewAgent.class))));
    r.get("/api/agents/{id}", ctx -> ctx.json(json(call(() -> agents.get(id(ctx))))));
    r.get("/api/agents/{id}/diff", ctx -> ctx.json(diff(id(ctx))));
    r.get("/api/agents/{id}/transcript", this::transcript);
    r.post("/api/agents/{id}/input", ctx -> {
      Input in = Json.read(ctx.body(), Input.class);
      String id = id(ctx);
      int given = (in.text() == null ? 0 : 1) + (in.key() == null ? 0 : 1) + (in.answer() == null ? 0 : 1);
      if (given != 1) {
        throw ServeException.badRequest("give exactly one of text, key or answer");
      }
      notifications.agentInput(id);
      call(() -> {
        if (in.text() != null) {
          agents.send(id, in.text());
        } else if (in.key() != null) {
          agents.sendKey(id, in.key());
        } else {
          agents.answer(id, in.answer());
        }
        return null;
      });
      ctx.status(204);
    });
    r.post("/api/agents/{id}/stop", ctx -> ctx.json(json(call(() -> agents.stop(id(ctx))))));
    r.post("/api/agents/{id}/resume", ctx -> {
      AgentSession s = call(() -> agents.resume(id(ctx)));
      track(s, null);
      ctx.json(json(s));
    });
    r.post("/api/agents/{id}/merge", ctx -> {
      MergeResult m = call(() -> agents.merge(id(ctx)));
      ctx.json(AgentJson.merge(m));
    });
    r.delete("/api/agents/{id}", ctx -> {
      String id = id(ctx);
      boolean discard = "true".equals(ctx.queryParam("discard"));
      call(() -> {
        if (discard) {
          agents.discard(id);
        } else {
          agents.forget(id);
        }
        return null;
      });
      ctx.status(204);
    });
  }

  private static String id(Context ctx) {
    return ctx.pathParam("id");
  }

  /** Hands the session's new PTY to auto-resume (on a request thread: never the PTY's own). */
  private void track(AgentSession s, Boolean autoResume) {
    agents.terminal(s.id()).ifPresent(pty -> notifications.trackAgent(agents.get(s.id()), pty, autoResume));
  }

  // ---- the same calls for in-process callers (the MCP tools); each throws ServeException ----

  /** {@code GET /api/agents}. */
  public List<AgentJson> list() {
    return call(() -> agents.list().stream().map(this::json).toList());
  }

  /** {@code POST /api/agents}: the started session. */
  public AgentJson start(NewAgent request) {
    AgentSpec spec = spec(request);
    AgentSession s = call(() -> agents.start(spec));
    track(s, request.auto_resume());
    return json(s);
  }

  /** {@code GET /api/agents/{id}/diff}. */
  public AgentJson.Diff diff(String id) {
    return AgentJson.diff(call(() -> agents.diff(id)));
  }

  private AgentSpec spec(NewAgent n) {
    if (n.agent() == null || n.agent().isBlank()) {
      throw ServeException.badRequest("name the agent: one of " + java.util.Arrays.stream(AgentType.values())
          .map(AgentType::cliName).collect(java.util.stream.Collectors.joining(", ")));
    }
    if (n.repo() == null || n.repo().isBlank() || !Path.of(n.repo()).isAbsolute()) {
      throw ServeException.badRequest("repo must be an absolute folder, got '" + n.repo() + "'");
    }
    AgentType type = call(() -> AgentType.named(n.agent().trim()));
    AgentSpec spec = AgentSpec.of(type, Path.of(n.repo()));
    if (Boolean.TRUE.equals(n.in_place())) {
      if (n.worktree() != null && !n.worktree().isBlank()) {
        throw ServeException.badRequest("give a worktree name or in_place, not both");
      }
      spec = spec.withInPlace(true);
    } else if (n.worktree() != null && !n.worktree().isBlank()) {
      spec = spec.withWorktree(n.worktree().trim());
    }
    if (n.base() != null && !n.base().isBlank()) {
      spec = spec.withBase(n.base().trim());
    }
    if (n.prompt() != null && !n.prompt().isBlank()) {
      spec = spec.withPrompt(n.prompt());
    }
    if (n.command() != null && !n.command().isBlank()) {
      spec = spec.withCommand(n.command().trim());
    }
    if (n.args() != null) {
      spec = spec.withArgs(n.args());
    }
    if (n.cols() != null || n.rows() != null) {
      spec = spec.withSize(n.cols() == null ? spec.cols() : n.cols(), n.rows() == null ? spec.rows() : n.rows());
    }
    return spec;
  }

  /** The linked transcript's detail, the same JSON as {@code /api/history/sessions/{id}}, parsed fresh. */
  private void transcript(Context ctx) {
    AgentSession s = call(() -> agents.get(id(ctx)));
    TranscriptLink link = s.transcript();
    if (link == null) {
      throw ServeException.notFound("agent " + s.id() + " has no transcript yet (" + s.transcriptStatus().code() + ")");
    }
    Provider provider;
    try {
      provider = Provider.parse(link.provider());
    } catch (IllegalArgumentException e) {
      throw ServeException.notFound("the " + link.provider() + " transcript " + link.path() + " is linked but agentdesk"
          + " cannot read its format yet");
    }
    if (!Files.isRegularFile(link.path())) {
      throw ServeException.notFound("the transcript " + link.path() + " is gone");
    }
    try {
      byte[] detail = DetailJson.writeUtf8(Transcripts.parse(provider, link.path()).detail());
      ctx.contentType("application/json").result(detail);
    } catch (TranscriptException e) {
      throw new ServeException(ServeException.Reason.UNAVAILABLE, e.getMessage(), e);
    }
  }

  AgentJson json(AgentSession s) {
    AgentCost cost = s.transcript() == null ? AgentCost.NONE : cost(s.id(), s.transcript());
    return AgentJson.of(s, s.terminalId() == null ? null : terminals.state(s.terminalId()).orElse(null), cost.usd(),
        cost.agentUsd());
  }

  /** The last costs read of the session; never waits (see {@link #costs}). */
  private AgentCost cost(String agentId, TranscriptLink link) {
    Cost c = costs.get(link.sessionId());
    if ((c == null || System.currentTimeMillis() - c.readAtMs() > COST_TTL_MS) && costsReading.add(link.sessionId())) {
      try {
        costReader.execute(() -> readCost(agentId, link));
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        costsReading.remove(link.sessionId());
      }
    }
    return c == null ? AgentCost.NONE : c.costs();
  }

  /**
   * The history's costs of the session, else (not imported: {@code --no-import}, or not yet) the
   * files' own: ours and the agent's, over every file of the link (a session that went on in a newer
   * file costs what all of them do). On {@link #costReader}.
   */
  private void readCost(String agentId, TranscriptLink link) {
    try {
      AgentCost known = historyCost(link, costOfSession);
      AgentCost fresh = known != null ? known : transcriptCost.of(link);
      Cost old = costs.put(link.sessionId(), new Cost(fresh, System.currentTimeMillis()));
      if (old == null ? !fresh.equals(AgentCost.NONE) : !old.costs().equals(fresh)) {
        events.publish(new ServerEvent.AgentChanged(json(agents.get(agentId))));
      }
    } catch (RuntimeException e) {
      // a session discarded meanwhile, a history being rebuilt: the next JSON asks again
    } finally {
      costsReading.remove(link.sessionId());
    }
  }

  /** The history's costs summed over the link's files, or null unless it has priced every one of them. */
  static AgentCost historyCost(TranscriptLink link, Function<String, AgentCost> costOfSession) {
    double usd = 0;
    Double agentUsd = null;
    for (TranscriptLink.Part part : link.parts()) {
      AgentCost c = costOfSession.apply(part.sessionId());
      if (c == null || c.usd() == null) {
        return null;
      }
      usd += c.usd();
      if (c.agentUsd() != null) {
        agentUsd = (agentUsd == null ? 0 : agentUsd) + c.agentUsd();
      }
    }
    return new AgentCost(Math.round(usd * 1e6) / 1e6, agentUsd == null ? null : Math.round(agentUsd * 1e6) / 1e6);
  }

  /** Runs an agents call, turning its typed errors into the API's. */
  static <T> T call(Supplier<T> action) {
    try {
      return action.get();
    } catch (AgentException e) {
      throw translate(e);
    }
  }

  static ServeException translate(AgentException e) {
    ServeException.Reason reason = switch (e.reason()) {
      case UNKNOWN_SESSION -> ServeException.Reason.NOT_FOUND;
      case WORKTREE_EXISTS, WORKTREE_MISSING, WRONG_STATE, NOT_RESUMABLE, MERGE_CONFLICT, BASE_DIRTY, NO_BASE_BRANCH,
          TOO_MANY_RUNNING -> ServeException.Reason.CONFLICT;
      case GIT_FAILED, SPAWN_FAILED, STORE_FAILURE -> ServeException.Reason.INTERNAL;
      default -> ServeException.Reason.BAD_REQUEST;
    };
    return new ServeException(reason, e.getMessage(), e.reason().code(), e.paths(), e);
  }

  /** The sessions behind the area (tests in this package start agents without HTTP). */
  AgentSessions sessions() {
    return agents;
  }

  @Override
  public void close() {
    costReader.shutdownNow();
    agents.close();
  }
}
