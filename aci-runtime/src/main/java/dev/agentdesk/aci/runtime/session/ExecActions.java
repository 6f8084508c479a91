package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.exec.BufferedResult;
import dev.agentdesk.aci.runtime.exec.ExecLimits;
import dev.agentdesk.aci.runtime.exec.ExecOutcome;
import dev.agentdesk.aci.runtime.exec.ExecRequest;
import dev.agentdesk.aci.runtime.exec.ExecRunner;
import dev.agentdesk.aci.runtime.exec.OutputChunk;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.aci.wire.ExecExitMsg;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.WireCodec;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code exec} verb for one session: buffered runs answer one result, streamed runs an ack,
 * chunks and one exit. Every child the session started is killed when the session closes.
 */
final class ExecActions {
  private final ExecRunner runner;
  private final Outbound out;
  private final ExecutorService pool;
  private final Set<ExecRunner.Running> running = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  ExecActions(ExecRunner runner, Outbound out, ExecutorService pool) {
    this.runner = runner;
    this.out = out;
    this.pool = pool;
  }

  /** The request with clamped timeout; children see the driven display unless env overrides it. */
  static ExecRequest request(Action a, String display) {
    long timeout = a.timeoutMs() == null ? ExecLimits.DEFAULT_TIMEOUT_MS
        : Math.min(ExecLimits.MAX_TIMEOUT_MS, Math.max(1, a.timeoutMs()));
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("DISPLAY", display);
    if (a.env() != null) {
      env.putAll(a.env());
    }
    return new ExecRequest(a.argv(), a.shell(), a.cwd(), env, a.stdin(), timeout);
  }

  void start(String callId, Action a, String display) {
    ExecRequest req = request(a, display);
    if (Boolean.TRUE.equals(a.stream())) {
      stream(callId, req);
    } else {
      pool.execute(() -> buffered(callId, req));
    }
  }

  private void buffered(String callId, ExecRequest req) {
    ExecRunner.Running[] mine = new ExecRunner.Running[1];
    try {
      BufferedResult r = runner.runBuffered(req, started -> {
        mine[0] = started;
        running.add(started);
        if (closed) {
          started.kill();
        }
      });
      ExecOutcome o = r.outcome();
      ExecResult value = new ExecResult(o.exitCode() == null ? null : o.exitCode().longValue(),
          o.signal() == null ? null : o.signal().longValue(), o.timedOut(), r.stdout(), r.stderr(),
          r.stdoutTruncated(), r.stderrTruncated(), round(o.durationMs()));
      out.send(Result.ok(callId, WireCodec.toJson(value)));
    } catch (AciRuntimeException e) {
      // a refused request (the concurrency limit) is a nack, as in the reference; a failed run a result
      out.send(e.reason() == AciRuntimeException.Reason.LIMIT ? Ack.nack(callId, e.getMessage())
          : Result.error(callId, e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (mine[0] != null) {
        running.remove(mine[0]);
      }
    }
  }

  private void stream(String callId, ExecRequest req) {
    // Chunks and the exit wait for the ack, so the client always sees ack first.
    CountDownLatch acked = new CountDownLatch(1);
    AtomicReference<ExecRunner.Running> self = new AtomicReference<>();
    ExecRunner.Running r;
    try {
      r = runner.startStreamed(req,
          chunk -> {
            await(acked);
            out.send(ExecOutputMsg.of(callId, chunk.seq(),
                chunk.channel() == OutputChunk.Channel.STDOUT ? Channel.STDOUT : Channel.STDERR, chunk.data()));
          },
          end -> {
            await(acked);
            ExecOutcome o = end.outcome();
            out.send(new ExecExitMsg(callId, o.exitCode() == null ? null : o.exitCode().longValue(),
                o.signal() == null ? null : o.signal().longValue(), o.timedOut(), round(o.durationMs()),
                end.truncated(), null));
            ExecRunner.Running done = self.get();
            if (done != null) {
              running.remove(done);
            }
          });
    } catch (AciRuntimeException e) {
      if (e.getMessage().startsWith("exec_spawn_failed:")) {
        out.send(Ack.ok(callId));
        out.send(new ExecExitMsg(callId, null, null, false, 0.0, false, e.getMessage()));
      } else {
        out.send(Ack.nack(callId, e.getMessage()));
      }
      return;
    }
    self.set(r);
    running.add(r);
    if (closed) {
      r.kill();
    }
    out.send(Ack.ok(callId));
    acked.countDown();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static double round(double ms) {
    return Math.round(ms * 100) / 100.0;
  }

  /** Kills every child this session started. */
  void close() {
    closed = true;
    running.forEach(ExecRunner.Running::kill);
  }
}
