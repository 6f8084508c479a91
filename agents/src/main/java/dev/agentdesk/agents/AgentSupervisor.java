package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionException;
import dev.agentdesk.terminal.session.SessionListener;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The live side of {@link AgentSessions}: the sessions running in this process, the PTY listener
 * that follows each terminal's state, the poller that finds and reads transcripts, snapshots and
 * events. The public class keeps the operations; this one keeps them up to date.
 */
final class AgentSupervisor implements AutoCloseable {
  private static final long PERSIST_ACTIVITY_MS = 5000;
  final Map<String, LiveAgent> live = new ConcurrentHashMap<>();
  private final AgentSessions.Config config;
  private final AgentStore store;
  private final TranscriptWatch watch;
  private final List<Consumer<AgentEvent>> listeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService poller;
  /** Types first prompts; a write that blocks holds up only its own thread. */
  private final java.util.concurrent.ExecutorService typist = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "agent-sessions-typist");
    t.setDaemon(true);
    return t;
  });

  AgentSupervisor(AgentSessions.Config config, AgentStore store, TranscriptWatch watch) {
    this.config = config;
    this.store = store;
    this.watch = watch;
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "agent-sessions-poller");
      t.setDaemon(true);
      return t;
    });
    poller.scheduleWithFixedDelay(this::pollAll, config.poll().toMillis(), config.poll().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  void addListener(Consumer<AgentEvent> l) {
    listeners.add(l);
  }

  void removeListener(Consumer<AgentEvent> l) {
    listeners.remove(l);
  }

  /** A worktree folder that vanished turns the session into {@link Lifecycle#WORKTREE_MISSING} (stored). */
  boolean noticeMissing(LiveAgent agent) {
    if (agent.row.lifecycle() != Lifecycle.WORKTREE_MISSING && !Files.isDirectory(agent.row.worktree())) {
      agent.row = agent.row.withLifecycle(Lifecycle.WORKTREE_MISSING);
      store.put(agent.row);
      return true;
    }
    return false;
  }

  AgentSession snapshot(LiveAgent a) {
    synchronized (a) {
      SessionRow r = a.row;
      boolean running = a.running();
      AgentStatus status = StatusRules.combine(r.lifecycle(), running ? a.terminal : null, a.turn(), a.questionSeq,
          a.questionContradicted, a.pty == null ? 0 : a.pty.spec().clock().nowMillis());
      if (status.clearedByTranscript()) {
        a.questionContradicted = true;
      }
      a.lastStatus = status;
      Instant activity = a.lastActivity.isAfter(r.lastActivityAt()) ? a.lastActivity : r.lastActivityAt();
      return new AgentSession(r.id(), r.agent(), r.name(), r.repo(), r.worktree(), r.branch(), r.base(),
          r.baseCommit(), r.baseBranch(), r.inPlace(), r.argv(), r.launchId(), r.terminalId(),
          r.transcript(), r.transcriptStatus(), r.lifecycle(), status, running ? a.terminal : null, a.tokens,
          a.reader == null ? 0 : a.reader.offset(), r.createdAt(), activity);
    }
  }

  /**
   * The listener of one spawned session of {@code agent}. Its {@code bound} and {@code exited} are
   * guarded by the agent's monitor: until {@link AgentSessions} has bound the new session to the
   * agent (its terminal id, its row), an exit is only noted, and the binding ends the row itself.
   * (A program that ends within milliseconds is reported before the binding; its exit reaches the
   * listener before {@code isRunning()} turns false, so only this flag says it happened.)
   */
  final class AgentListener implements SessionListener {
    private final LiveAgent agent;
    boolean bound;
    boolean exited;

    AgentListener(LiveAgent agent) {
      this.agent = agent;
    }

    @Override
    public void onOutput(byte[] chunk) {
      synchronized (agent) {
        agent.sawOutput = true;
        agent.lastActivity = Instant.now();
      }
    }

    @Override
    public void onEvent(SessionEvent event) {
      if (event instanceof SessionEvent.StateChanged sc) {
        synchronized (agent) {
          boolean raised = sc.state().awaitingInput() && (agent.terminal == null || !agent.terminal.awaitingInput());
          if (raised || (sc.state().awaitingInput() && agent.terminal != null
              && !java.util.Objects.equals(sc.state().question(), agent.terminal.question()))) {
            agent.questionSeq = agent.turn().seq();
            agent.questionContradicted = false;
          }
          agent.terminal = sc.state();
        }
        emit(new AgentEvent.Changed(snapshot(agent)));
      } else if (event instanceof SessionEvent.Exited) {
        String terminalId;
        synchronized (agent) {
          exited = true;
          if (!bound) {
            return; // the row is still the one from before this session: the binding ends it and reports it
          }
          terminalId = agent.row.terminalId();
          if (agent.row.lifecycle() == Lifecycle.RUNNING) {
            agent.row = agent.row.withLifecycle(Lifecycle.ENDED).withActivity(Instant.now());
            safePut(agent.row);
          }
        }
        emit(new AgentEvent.Changed(snapshot(agent)));
        config.host().ended(terminalId);
      }
    }
  }

  AgentListener listenerFor(LiveAgent agent) {
    return new AgentListener(agent);
  }

  void pollAll() {
    long now = System.currentTimeMillis();
    Set<String> claimed = new HashSet<>();
    for (SessionRow r : store.all()) {
      if (r.transcript() != null) {
        r.transcript().parts().forEach(p -> claimed.add(p.sessionId()));
      }
    }
    for (LiveAgent agent : live.values()) {
      try {
        boolean changed;
        synchronized (agent) {
          if (!agent.running()) {
            continue;
          }
          changed = noticeMissing(agent);
        }
        // Without the monitor: the PTY reader needs it for every chunk and state change, and reading
        // or parsing a large transcript here must not stall the agent's output (LiveAgent's contract).
        TranscriptWatch.Step step = watch.step(agent, claimed, now);
        synchronized (agent) {
          if (step.newRow() != null) {
            // only the link is the step's: the row may have changed meanwhile (it ended, say)
            agent.row = agent.row.withTranscript(step.newRow().transcript(), step.newRow().transcriptStatus());
            safePut(agent.row);
            if (agent.row.transcript() != null) {
              claimed.add(agent.row.transcript().sessionId());
            }
          }
          if (step.readLines()) {
            agent.lastActivity = Instant.ofEpochMilli(now);
          }
          if (step.tokens() != null && !step.tokens().equals(agent.tokens)) {
            agent.tokens = step.tokens();
            changed = true;
          }
          changed |= step.changed();
          changed |= typePendingPrompt(agent, now);
          if (agent.lastActivity.toEpochMilli() - agent.lastPersistedActivity.toEpochMilli() > PERSIST_ACTIVITY_MS) {
            agent.row = agent.row.withActivity(agent.lastActivity);
            agent.lastPersistedActivity = agent.lastActivity;
            safePut(agent.row);
          }
        }
        AgentStatus before = agent.lastStatus;
        AgentSession s = snapshot(agent);
        if (changed || !s.status().equals(before)) {
          emit(new AgentEvent.Changed(s));
        }
      } catch (RuntimeException e) {
        // one session's trouble (a file that vanished mid-read) must not stop the others' polling
        System.err.println("agentdesk: agent session " + agent.row.id() + ": poll failed: " + e);
      }
    }
  }

  /** Types the first prompt for agents that take it typed, once their first screen has gone quiet. */
  private boolean typePendingPrompt(LiveAgent agent, long nowMs) {
    if (agent.pendingPrompt == null) {
      return false;
    }
    boolean quiet = agent.sawOutput && agent.terminal != null && !agent.terminal.busy();
    if (!quiet && nowMs - agent.row.spawnedAt().toEpochMilli() < 5000) {
      return false;
    }
    String prompt = agent.pendingPrompt;
    agent.pendingPrompt = null;
    PtySession pty = agent.pty;
    // A PTY write blocks while the child does not read: on its own thread, not the poller's.
    typist.execute(() -> {
      try {
        pty.typeLine(prompt);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SessionException e) {
        // the agent exited before its prompt: nothing to type into
      }
    });
    return true;
  }

  void safePut(SessionRow r) {
    try {
      store.put(r);
    } catch (AgentException e) {
      System.err.println("agentdesk: " + e.getMessage());
    }
  }

  void emit(AgentEvent e) {
    for (Consumer<AgentEvent> l : listeners) {
      try {
        l.accept(e);
      } catch (RuntimeException ex) {
        System.err.println("agentdesk: agent event listener failed: " + ex);
      }
    }
  }


  @Override
  public void close() {
    poller.shutdownNow();
    typist.shutdownNow();
    for (LiveAgent a : live.values()) {
      if (a.running()) {
        a.pty.close();
      }
    }
  }
}
