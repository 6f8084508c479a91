package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentException.Reason;
import dev.agentdesk.terminal.session.AgentDetector;
import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionException;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import dev.agentdesk.transcripts.HistoryFolders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Agent sessions: start an agent CLI in its own git worktree (or in place) in a supervised PTY,
 * link its transcript, combine the terminal's and the transcript's signals into one status, show
 * its diff, merge or discard its work, resume it after it ended. Sessions are stored in
 * agents.db and survive a restart (as ended sessions: their processes do not). Thread-safe.
 *
 * <p><b>Lock order.</b> {@code startLock} (one start or resume at a time) → a session's PTY lock
 * (held by its reader and the shared ticker while they call listeners) → the live agent's monitor
 * ({@code synchronized (agent)}: its row and terminal state). Code holding an agent's monitor never
 * calls into its PtySession (state, input, resize, close), never spawns and never reads a
 * transcript: it reads what the listener stored. The poller searches, reads and parses transcripts
 * without the monitor and applies the result under it in a short step (LiveAgent says which fields
 * are the poller's); typing a first prompt runs on a thread of its own.
 *
 * <p>Over 500 lines because it is the whole public API of agent sessions; the live side is in
 * {@code AgentSupervisor}, stopping in {@code GracefulStop}.
 */
public final class AgentSessions implements AutoCloseable {
  /**
   * How the service runs.
   *
   * @param storeFile agents.db
   * @param worktreeRoot new worktrees go to {@code <root>/<repo-name>/<name>}
   * @param env the environment agents see on top of the JVM's (PATH, HOME, …); also where the
   *     transcript homes come from ({@code HOME}, {@code CLAUDE_CONFIG_DIR}, {@code CODEX_HOME})
   * @param transcriptTimeout after this long without a transcript the status is {@code not_found}
   * @param poll how often transcripts are looked for and read
   * @param host starts the PTYs ({@link TerminalHost#direct()} unless a server hosts them)
   */
  public record Config(Path storeFile, Path worktreeRoot, Map<String, String> env, Duration transcriptTimeout,
      Duration poll, TerminalHost host) {
    public Config {
      env = Map.copyOf(env);
    }

    /**
     * agents.db and worktrees under {@code $XDG_DATA_HOME/agentdesk} (else ~/.local/share/agentdesk),
     * the JVM's environment, 60 s transcript timeout, 250 ms poll, direct PTYs.
     */
    public static Config defaults() {
      Map<String, String> env = System.getenv();
      Path home = HistoryFolders.home(env); // $HOME as the agents read it, in the one place history does
      Path data = Path.of(env.getOrDefault("XDG_DATA_HOME", home.resolve(".local/share").toString())).resolve("agentdesk");
      return new Config(data.resolve("agents.db"), data.resolve("worktrees"), env, Duration.ofSeconds(60),
          Duration.ofMillis(250), TerminalHost.direct());
    }

    public Config withEnv(Map<String, String> newEnv) {
      return new Config(storeFile, worktreeRoot, newEnv, transcriptTimeout, poll, host);
    }

    public Config withTranscriptTimeout(Duration d) {
      return new Config(storeFile, worktreeRoot, env, d, poll, host);
    }

    public Config withHost(TerminalHost h) {
      return new Config(storeFile, worktreeRoot, env, transcriptTimeout, poll, h);
    }
  }

  private final Config config;
  private final AgentStore store;
  private final Git git = new Git();
  private final Worktrees worktrees = new Worktrees(git);
  private final Diffs diffs = new Diffs(git);
  private final Merges merges = new Merges(git);
  private final AgentSupervisor sup;
  private final Map<String, LiveAgent> live;
  /** Serializes starts, so two starts cannot claim the same worktree name or transcript. */
  private final Object startLock = new Object();

  private AgentSessions(Config config, AgentStore store, UnaryOperator<TranscriptWatch.Finder> finder) {
    this.config = config;
    this.store = store;
    TranscriptWatch watch = new TranscriptWatch(finder.apply(new TranscriptLocator(mergedEnv(config.env()))),
        config.transcriptTimeout());
    this.sup = new AgentSupervisor(config, store, watch);
    this.live = sup.live;
  }

  /**
   * Opens the store. Sessions stored as running belonged to a process that is gone (agentdesk
   * stops its PTYs when it stops), so they come back as ended, resumable, with their links.
   */
  public static AgentSessions open(Config config) {
    return open(config, UnaryOperator.identity());
  }

  /** {@link #open(Config)} whose transcript search goes through {@code finder} (tests: a search that takes long). */
  static AgentSessions open(Config config, UnaryOperator<TranscriptWatch.Finder> finder) {
    AgentStore store = AgentStore.open(config.storeFile());
    for (SessionRow r : store.all()) {
      if (r.lifecycle() == Lifecycle.RUNNING) {
        store.put(r.withLifecycle(Lifecycle.ENDED));
      }
    }
    return new AgentSessions(config, store, finder);
  }

  public void addListener(Consumer<AgentEvent> listener) {
    sup.addListener(listener);
  }

  public void removeListener(Consumer<AgentEvent> listener) {
    sup.removeListener(listener);
  }

  // ---- start / resume / stop ----

  /**
   * Starts an agent. Everything that can be checked is checked before anything is made (agent,
   * executable, repository, base, name); a failure after the worktree was made removes it and its
   * branch again.
   */
  public AgentSession start(AgentSpec spec) {
    AgentType type = spec.agent();
    Map<String, String> env = new java.util.HashMap<>(config.env());
    env.putAll(spec.env());
    String pathVar = mergedEnv(env).getOrDefault("PATH", "/usr/bin:/bin");
    String exeName = type == AgentType.COMMAND ? spec.command().orElse(spec.args().isEmpty() ? null : spec.args().get(0))
        : spec.command().orElse(type.executable());
    List<String> extra = type == AgentType.COMMAND && spec.command().isEmpty() && !spec.args().isEmpty()
        ? spec.args().subList(1, spec.args().size()) : spec.args();
    Path exe = AgentRules.resolveExecutable(exeName, pathVar, spec.repo());
    if (spec.cols() < 1 || spec.rows() < 1 || spec.cols() > SessionSpec.MAX_DIMENSION
        || spec.rows() > SessionSpec.MAX_DIMENSION) {
      throw new AgentException(Reason.INVALID_SPEC, "terminal size " + spec.cols() + "x" + spec.rows()
          + " must be 1.." + SessionSpec.MAX_DIMENSION + " each way");
    }
    Worktrees.Repo repo = worktrees.open(spec.repo());
    String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String launchId = UUID.randomUUID().toString();
    synchronized (startLock) {
      Worktrees.Base base;
      Worktrees.Created created = null;
      Path folder;
      String name;
      String branch;
      if (spec.inPlace()) {
        base = worktrees.base(repo, Optional.empty());
        name = spec.worktreeName().orElse(type.cliName() + "-" + id.substring(0, 6));
        folder = repo.top();
        branch = base.branch();
      } else {
        name = spec.worktreeName().orElse(type.cliName() + "-" + id.substring(0, 6));
        Worktrees.checkName(name);
        base = worktrees.base(repo, spec.base());
        created = worktrees.create(config.worktreeRoot(), repo, name, base);
        folder = created.folder();
        branch = created.branch();
      }
      List<String> argv = AgentRules.launch(type, exe.toString(), extra, launchId, spec.prompt());
      Instant now = Instant.now();
      SessionRow row = new SessionRow(id, type, name, repo.top(), folder, branch, base.ref(), base.commit(),
          base.branch(), spec.inPlace(), argv, extra, type == AgentType.CLAUDE ? launchId : null, null, null,
          AgentRules.transcriptRule(type) == AgentRules.TranscriptRule.NONE ? TranscriptStatus.UNSUPPORTED
              : TranscriptStatus.SEARCHING, Lifecycle.RUNNING,
          created == null ? List.of() : created.madeParents(), now, now, now);
      LiveAgent agent = new LiveAgent(row);
      if (AgentRules.promptMode(type) == AgentRules.PromptMode.TYPED) {
        agent.pendingPrompt = spec.prompt().filter(p -> !p.isEmpty()).orElse(null);
      }
      try {
        spawn(agent, argv, spec.env(), spec.cols(), spec.rows(), false);
        store.put(agent.row);
      } catch (RuntimeException e) {
        if (agent.pty != null) {
          agent.pty.close();
        }
        if (created != null) {
          worktrees.remove(repo, created);
        }
        throw e;
      }
      live.put(id, agent);
      AgentSession s = sup.snapshot(agent);
      sup.emit(new AgentEvent.Changed(s));
      return s;
    }
  }

  /** Relaunches an ended session with its agent's resume arguments, in the same worktree, as the same record. */
  public AgentSession resume(String id) {
    LiveAgent agent = agent(id);
    // Spawned under the start lock, not the agent's monitor: the new session's threads take the
    // monitor while holding the session's lock (see spawn), so holding the monitor across the
    // spawn could deadlock with the agent's own first events.
    synchronized (startLock) {
      List<String> argv;
      synchronized (agent) {
        checkWorktree(agent);
        if (agent.running()) {
          throw new AgentException(Reason.WRONG_STATE, "session " + id + " is still running");
        }
        SessionRow r = agent.row;
        String transcriptId = r.transcript() == null ? null : r.transcript().sessionId();
        argv = AgentRules.resume(r.agent(), r.argv().get(0), r.extraArgs(), r.launchId(), transcriptId);
        agent.reader = null; // re-read the transcript from its start: the turn state is rebuilt
        agent.questionSeq = 0;
        agent.sawOutput = false;
      }
      // Every agent's resume redraws the conversation so far: its old errors and limits are not news.
      spawn(agent, argv, Map.of(), 120, 36, true);
      SessionRow row;
      synchronized (agent) {
        row = agent.row;
      }
      store.put(row);
    }
    AgentSession s = sup.snapshot(agent);
    sup.emit(new AgentEvent.Changed(s));
    return s;
  }

  private void spawn(LiveAgent agent, List<String> argv, Map<String, String> extraEnv, int cols, int rows,
      boolean replaysHistory) {
    SessionRow r = agent.row;
    SessionSpec spec = SessionSpec.of(argv).withCwd(r.worktree()).withSize(cols, rows).withHistoryReplay(replaysHistory)
        .withAgent(r.agent() == AgentType.COMMAND ? AgentDetector.detect(argv) : r.agent().terminalAgent());
    for (Map.Entry<String, String> e : config.env().entrySet()) {
      if (!System.getenv().containsKey(e.getKey()) || !System.getenv().get(e.getKey()).equals(e.getValue())) {
        spec = spec.withEnv(e.getKey(), e.getValue());
      }
    }
    for (Map.Entry<String, String> e : extraEnv.entrySet()) {
      spec = spec.withEnv(e.getKey(), e.getValue());
    }
    TerminalHost.Started started;
    AgentSupervisor.AgentListener listener = sup.listenerFor(agent);
    try {
      started = config.host().start(spec, listener);
    } catch (SessionException e) {
      Reason why = e.reason() == SessionException.Reason.TOO_MANY_RUNNING ? Reason.TOO_MANY_RUNNING
          : e.isUserError() && e.reason() == SessionException.Reason.SPAWN_FAILED ? Reason.COMMAND_NOT_FOUND
          : Reason.SPAWN_FAILED;
      throw new AgentException(why, e.getMessage(), e);
    }
    Instant now = Instant.now();
    // Read before taking the agent's monitor: state() takes the session's lock, and the session's
    // threads hold that lock when they call the listener, which takes the monitor (lock order:
    // session lock → agent monitor, never the other way round).
    dev.agentdesk.terminal.session.SessionState first = started.session().state();
    boolean endedAlready;
    synchronized (agent) {
      agent.pty = started.session();
      agent.terminal = first;
      agent.row = r.withTerminal(started.terminalId(), argv, now);
      agent.lastActivity = now;
      // A program that ends within milliseconds has exited before this binding: its listener only
      // noted it (the row was still the one from before); without this it stays "running".
      listener.bound = true;
      endedAlready = listener.exited;
      if (endedAlready) {
        agent.row = agent.row.withLifecycle(Lifecycle.ENDED).withActivity(now);
      }
    }
    if (endedAlready) {
      config.host().ended(started.terminalId());
    }
  }

  /**
   * Stops the agent as it expects to be stopped: its own exit keys (AgentRules.farewell) and time
   * to write its last records, then SIGTERM, then SIGKILL of the process group. The session stays,
   * ended and resumable.
   */
  public AgentSession stop(String id) {
    LiveAgent agent = agent(id);
    PtySession pty;
    AgentType type;
    synchronized (agent) {
      pty = agent.pty;
      type = agent.row.agent();
    }
    if (pty != null) {
      GracefulStop.end(pty, type);
    }
    synchronized (agent) {
      if (agent.row.lifecycle() == Lifecycle.RUNNING) {
        agent.row = agent.row.withLifecycle(Lifecycle.ENDED);
        store.put(agent.row);
      }
    }
    AgentSession s = sup.snapshot(agent);
    sup.emit(new AgentEvent.Changed(s));
    return s;
  }

  // ---- input ----

  /** Types {@code text} and presses Enter (a separate write: Ink CLIs read a burst with CR as a paste). */
  public void send(String id, String text) {
    PtySession pty = running(id);
    try {
      pty.typeLine(text);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SessionException e) {
      throw new AgentException(Reason.WRONG_STATE, e.getMessage(), e);
    }
    touch(id);
  }

  /** Presses a named key ({@code enter}, {@code esc}, {@code ctrl-c}, …) or types one character. */
  public void sendKey(String id, String key) {
    PtySession pty = running(id);
    try {
      if (key != null && key.codePointCount(0, key.length()) == 1) {
        pty.write(key);
      } else {
        pty.sendKey(Key.named(key));
      }
    } catch (SessionException e) {
      throw new AgentException(e.reason() == SessionException.Reason.UNKNOWN_KEY ? Reason.BAD_ANSWER
          : Reason.WRONG_STATE, e.getMessage(), e);
    }
    touch(id);
  }

  /**
   * Answers the choice menu on screen with option {@code index} (1-based, as numbered on screen;
   * a menu without digits is numbered in screen order): its digit, or for a cursor menu the arrow
   * keys from the highlighted option and Enter.
   */
  public void answer(String id, int index) {
    PtySession pty = running(id);
    PendingChoice choice = pty.state().choicePrompt();
    if (choice == null) {
      throw new AgentException(Reason.BAD_ANSWER, "session " + id + " shows no choice menu");
    }
    if (choice.options().stream().noneMatch(o -> o.index() == index)) {
      throw new AgentException(Reason.BAD_ANSWER, "option " + index + " is not one of "
          + choice.options().stream().map(o -> o.index() + ". " + o.label()).toList());
    }
    if (choice.numbered()) {
      pty.write(Integer.toString(index));
    } else {
      // A cursor menu (Claude's trust dialog, theme picker): move the marker, then Enter.
      // One write per key, apart: Ink reads a burst as one input and would not see the Enter.
      try {
        for (Key k : choice.keysFor(index)) {
          pty.sendKey(k);
          Thread.sleep(40);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    touch(id);
  }

  /** The running terminal of a session, for a server that shows it (empty when not running here). */
  public Optional<PtySession> terminal(String id) {
    LiveAgent agent = agent(id);
    synchronized (agent) {
      return agent.running() ? Optional.of(agent.pty) : Optional.empty();
    }
  }

  // ---- read ----

  public AgentSession get(String id) {
    LiveAgent agent = agent(id);
    synchronized (agent) {
      sup.noticeMissing(agent);
    }
    return sup.snapshot(agent);
  }

  /** Every session: those awaiting input first, then by last activity, newest first. */
  public List<AgentSession> list() {
    List<AgentSession> out = new ArrayList<>();
    for (SessionRow r : store.all()) {
      try {
        out.add(get(r.id()));
      } catch (AgentException e) {
        // forgotten between the two reads
      }
    }
    out.sort(Comparator.comparing((AgentSession s) -> !s.status().awaitingInput())
        .thenComparing(AgentSession::lastActivityAt, Comparator.reverseOrder()).thenComparing(AgentSession::id));
    return out;
  }

  /** The worktree's changes against its base, uncommitted and untracked files included. */
  public WorktreeDiff diff(String id) {
    LiveAgent agent = agent(id);
    SessionRow r;
    synchronized (agent) {
      checkWorktree(agent);
      r = agent.row;
    }
    String baseRef = r.inPlace() || r.baseBranch() == null ? r.baseCommit() : r.baseBranch();
    return diffs.diff(r.worktree(), r.base(), baseRef, r.baseCommit());
  }

  // ---- merge / discard / forget ----

  /** Merges the session's branch into its base branch (see {@link MergeResult} and docs/agents.md). */
  public MergeResult merge(String id) {
    LiveAgent agent = agent(id);
    SessionRow r;
    synchronized (agent) {
      checkWorktree(agent);
      r = agent.row;
    }
    if (r.inPlace()) {
      throw new AgentException(Reason.NO_BASE_BRANCH, "session " + id + " ran in place: its changes are already in "
          + r.repo() + ", there is no branch to merge");
    }
    MergeResult m = merges.merge(r.repo(), r.worktree(), r.branch(), r.baseBranch(), r.agent().cliName() + " " + r.name());
    touch(id);
    return m;
  }

  /**
   * Stops the agent, removes its worktree (uncommitted work included) and branch, and forgets the
   * session. An in-place session is only forgotten: the user's checkout is never removed.
   */
  public void discard(String id) {
    remove(id, true);
  }

  /** Stops the agent and forgets the session; its worktree and branch stay. */
  public void forget(String id) {
    remove(id, false);
  }

  private void remove(String id, boolean discard) {
    LiveAgent agent = agent(id);
    if (agent.running()) {
      GracefulStop.end(agent.pty, agent.row.agent());
    }
    SessionRow r;
    synchronized (agent) {
      r = agent.row;
    }
    if (discard && !r.inPlace()) {
      Worktrees.Repo repo = new Worktrees.Repo(r.repo(), r.repo().getFileName().toString());
      List<String> problems = worktrees.remove(repo, new Worktrees.Created(r.worktree(), r.branch(), r.madeFolders()));
      if (!problems.isEmpty()) {
        throw new AgentException(Reason.GIT_FAILED, "discarding " + id + ": " + String.join("; ", problems));
      }
    }
    store.delete(id);
    live.remove(id);
    if (r.terminalId() != null) {
      config.host().removed(r.terminalId());
    }
    sup.emit(new AgentEvent.Removed(id));
  }

  // ---- internals ----

  private LiveAgent agent(String id) {
    LiveAgent a = live.get(id);
    if (a != null) {
      return a;
    }
    SessionRow row = store.get(id).orElseThrow(() -> new AgentException(Reason.UNKNOWN_SESSION,
        "no agent session " + id));
    return live.computeIfAbsent(id, k -> new LiveAgent(row));
  }

  private PtySession running(String id) {
    LiveAgent agent = agent(id);
    synchronized (agent) {
      if (!agent.running()) {
        throw new AgentException(Reason.WRONG_STATE, "session " + id + " is not running (resume it first)");
      }
      return agent.pty;
    }
  }

  private void checkWorktree(LiveAgent agent) {
    sup.noticeMissing(agent);
    if (agent.row.lifecycle() == Lifecycle.WORKTREE_MISSING) {
      throw new AgentException(Reason.WORKTREE_MISSING, "the worktree " + agent.row.worktree()
          + " of session " + agent.row.id() + " was removed outside agentdesk; discard the session");
    }
  }

  private void touch(String id) {
    LiveAgent agent = live.get(id);
    if (agent != null) {
      synchronized (agent) {
        agent.lastActivity = Instant.now();
      }
    }
  }

  static Map<String, String> mergedEnv(Map<String, String> over) {
    Map<String, String> m = new java.util.HashMap<>(System.getenv());
    m.putAll(over);
    return m;
  }

  /** Stops the poller and every running agent, then closes the store. */
  @Override
  public void close() {
    sup.close();
    store.close();
  }
}
