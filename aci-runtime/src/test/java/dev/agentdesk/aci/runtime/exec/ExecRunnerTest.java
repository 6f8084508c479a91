package dev.agentdesk.aci.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecRunnerTest {
  private final ExecRunner runner = new ExecRunner();

  private static ExecRequest argv(String... argv) {
    return new ExecRequest(List.of(argv), null, null, Map.of(), null, 10_000);
  }

  private static ExecRequest shell(String line, long timeoutMs) {
    return new ExecRequest(null, line, null, Map.of(), null, timeoutMs);
  }

  @Test
  void bufferedRunReturnsOutputAndExitCode() throws Exception {
    BufferedResult r = runner.runBuffered(shell("echo out; echo err >&2; exit 3", 10_000), x -> {});
    assertThat(r.stdout()).isEqualTo("out\n");
    assertThat(r.stderr()).isEqualTo("err\n");
    assertThat(r.outcome().exitCode()).isEqualTo(3);
    assertThat(r.outcome().timedOut()).isFalse();
    assertThat(r.outcome().signal()).isNull();
    assertThat(r.stdoutTruncated()).isFalse();
  }

  @Test
  void argvIsNotShellInterpreted() throws Exception {
    BufferedResult r = runner.runBuffered(argv("echo", "$HOME; rm -rf /", "*"), x -> {});
    assertThat(r.stdout()).isEqualTo("$HOME; rm -rf / *\n");
  }

  @Test
  void stdinEnvAndCwdReachTheChild(@TempDir Path dir) throws Exception {
    BufferedResult r = runner.runBuffered(new ExecRequest(List.of("sh", "-c", "cat; echo \"[$GREETING]\"; pwd"),
        null, dir.toString(), Map.of("GREETING", "héllo"), "line one\nline ✓\n", 10_000), x -> {});
    assertThat(r.stdout()).isEqualTo("line one\nline ✓\n[héllo]\n" + dir.toRealPath() + "\n");
    // without stdin the child reads /dev/null: immediate EOF instead of hanging
    BufferedResult eof = runner.runBuffered(argv("cat"), x -> {});
    assertThat(eof.stdout()).isEmpty();
    assertThat(eof.outcome().exitCode()).isZero();
    // env is merged: the runtime's own PATH is still there
    assertThat(runner.runBuffered(new ExecRequest(null, "echo $PATH", null, Map.of("X", "1"), null, 5000), x -> {})
        .stdout().trim()).isEqualTo(System.getenv("PATH"));
  }

  @Test
  void timeoutKillsTheWholeProcessGroup() throws Exception {
    BufferedResult r = runner.runBuffered(shell("echo $$; sleep 30 & sleep 31 & wait", 400), x -> {});
    assertThat(r.outcome().timedOut()).isTrue();
    assertThat(r.outcome().exitCode()).isNull();
    assertThat(r.outcome().signal()).isEqualTo(9);
    assertThat(r.outcome().durationMs()).isBetween(300.0, 5000.0);
    long pgid = Long.parseLong(r.stdout().trim());
    assertThat(groupMembers(pgid)).as("processes left in group %d", pgid).isEmpty();
  }

  @Test
  void childRunsInItsOwnSession() throws Exception {
    BufferedResult r = runner.runBuffered(shell("ps -o pid=,pgid=,sid= -p $$", 5000), x -> {});
    String[] f = r.stdout().trim().split("\\s+");
    assertThat(f[1]).isEqualTo(f[0]);
    assertThat(f[2]).isEqualTo(f[0]);
  }

  @Test
  void bufferedChannelsAreCappedWithFlags() throws Exception {
    BufferedResult r = runner.runBuffered(
        shell("head -c 300000 /dev/zero | tr '\\0' a; head -c 1000 /dev/zero | tr '\\0' b >&2", 10_000), x -> {});
    assertThat(r.stdout()).hasSize(ExecLimits.BUFFERED_CHANNEL_CAP).matches("a+");
    assertThat(r.stdoutTruncated()).isTrue();
    assertThat(r.stderr()).hasSize(1000);
    assertThat(r.stderrTruncated()).isFalse();
    BufferedResult exact = runner.runBuffered(shell("head -c 262144 /dev/zero | tr '\\0' a", 10_000), x -> {});
    assertThat(exact.stdout()).hasSize(262_144);
    assertThat(exact.stdoutTruncated()).isFalse();
  }

  @Test
  void invalidUtf8IsDecodedLossily() throws Exception {
    BufferedResult r = runner.runBuffered(shell("printf 'a\\377b'", 5000), x -> {});
    assertThat(r.stdout()).isEqualTo("a\uFFFDb");
  }

  @Test
  void spawnFailuresCarryThePrefix(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> runner.runBuffered(argv("definitely-not-a-program-xyz"), x -> {}))
        .hasMessage("exec_spawn_failed: definitely-not-a-program-xyz: No such file or directory (os error 2)");
    Path notExec = Files.writeString(dir.resolve("script"), "#!/bin/sh\n");
    assertThatThrownBy(() -> runner.runBuffered(argv(notExec.toString()), x -> {}))
        .hasMessageStartingWith("exec_spawn_failed: ").hasMessageContaining("Permission denied");
    assertThatThrownBy(() -> runner.runBuffered(
        new ExecRequest(List.of("true"), null, dir.resolve("nope").toString(), Map.of(), null, 1000), x -> {}))
        .hasMessageStartingWith("exec_spawn_failed: cwd ");
  }

  @Test
  void streamedChunksReassembleInOrderAndEndOnce() throws Exception {
    List<OutputChunk> chunks = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<ExecRunner.StreamEnd> end = new CompletableFuture<>();
    runner.startStreamed(shell("i=0; while [ $i -lt 2000 ]; do echo line$i; echo err$i >&2; i=$((i+1)); done; exit 5",
        10_000), chunks::add, e -> {
          if (!end.complete(e)) {
            throw new AssertionError("second exit");
          }
        });
    ExecRunner.StreamEnd e = end.get(20, TimeUnit.SECONDS);
    assertThat(e.outcome().exitCode()).isEqualTo(5);
    assertThat(e.truncated()).isFalse();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    for (int i = 0; i < chunks.size(); i++) {
      OutputChunk c = chunks.get(i);
      assertThat(c.seq()).isEqualTo(i);
      assertThat(c.data().length).isBetween(1, ExecLimits.STREAM_CHUNK);
      (c.channel() == OutputChunk.Channel.STDOUT ? out : err).write(c.data());
    }
    StringBuilder expectOut = new StringBuilder();
    StringBuilder expectErr = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      expectOut.append("line").append(i).append('\n');
      expectErr.append("err").append(i).append('\n');
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expectOut.toString());
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(expectErr.toString());
  }

  @Test
  void streamedBudgetTruncatesWhileTheChildRunsOn() throws Exception {
    List<OutputChunk> chunks = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<ExecRunner.StreamEnd> end = new CompletableFuture<>();
    runner.startStreamed(shell("head -c 9000000 /dev/zero; echo done >&2; exit 0", 20_000), chunks::add,
        end::complete);
    ExecRunner.StreamEnd e = end.get(30, TimeUnit.SECONDS);
    assertThat(e.truncated()).isTrue();
    assertThat(e.outcome().exitCode()).isZero();
    long total = chunks.stream().mapToLong(c -> c.data().length).sum();
    assertThat(total).isEqualTo(ExecLimits.STREAM_TOTAL);
  }

  @Test
  void atMostFourRunAtOnceAndKillEndsThem() throws Exception {
    List<ExecRunner.Running> running = new ArrayList<>();
    CountDownLatch ended = new CountDownLatch(4);
    List<ExecRunner.StreamEnd> ends = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 4; i++) {
      running.add(runner.startStreamed(shell("sleep 30", 60_000), c -> {}, e -> {
        ends.add(e);
        ended.countDown();
      }));
    }
    assertThatThrownBy(() -> runner.runBuffered(argv("true"), x -> {}))
        .hasMessage("max concurrent execs reached (4)");
    running.forEach(ExecRunner.Running::kill);
    assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(ends).allSatisfy(e -> {
      assertThat(e.outcome().exitCode()).isNull();
      assertThat(e.outcome().signal()).isEqualTo(9);
      assertThat(e.outcome().timedOut()).isFalse();
    });
    // slots come back once the runs are reaped
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    BufferedResult r = null;
    while (r == null && System.nanoTime() < deadline) {
      try {
        r = runner.runBuffered(argv("true"), x -> {});
      } catch (RuntimeException busy) {
        Thread.sleep(20);
      }
    }
    assertThat(r).isNotNull();
  }

  @Test
  void closeKillsEveryChildReapsThemAndRefusesNewOnes() throws Exception {
    ExecRunner own = new ExecRunner();
    ExecRunner.Running streamed = own.startStreamed(shell("sleep 30 & sleep 31 & wait", 60_000), c -> {}, e -> {});
    CompletableFuture<ExecRunner.Running> buffered = new CompletableFuture<>();
    CompletableFuture<BufferedResult> result = CompletableFuture.supplyAsync(() -> {
      try {
        return own.runBuffered(shell("sleep 32", 60_000), buffered::complete);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    long bufferedPid = buffered.get(10, TimeUnit.SECONDS).pid();
    assertThat(own.running()).isEqualTo(2);
    long started = System.nanoTime();
    own.close();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).as("close waits at most 1 s").isLessThan(1500);
    assertThat(ProcessHandle.of(streamed.pid())).isEmpty();
    assertThat(ProcessHandle.of(bufferedPid)).isEmpty();
    assertThat(groupMembers(streamed.pid())).as("the streamed child's grandchildren").isEmpty();
    assertThat(result.get(5, TimeUnit.SECONDS).outcome().signal()).isEqualTo(9);
    assertThat(own.running()).isZero();
    assertThatThrownBy(() -> own.runBuffered(argv("true"), x -> {}))
        .hasMessage("exec_spawn_failed: the runtime is stopping");
    own.close(); // idempotent
  }

  @Test
  void anInterruptedBufferedWaitKillsItsChild() throws Exception {
    CompletableFuture<Long> pid = new CompletableFuture<>();
    Thread waiter = new Thread(() -> {
      try {
        runner.runBuffered(shell("sleep 33", 60_000), r -> pid.complete(r.pid()));
      } catch (InterruptedException expected) {
        // the pool thread of a closing session
      }
    });
    waiter.start();
    long child = pid.get(10, TimeUnit.SECONDS);
    waiter.interrupt();
    waiter.join(5000);
    assertThat(waiter.isAlive()).isFalse();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (ProcessHandle.of(child).isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ProcessHandle.of(child)).as("child %d killed", child).isEmpty();
  }

  private static List<String> groupMembers(long pgid) throws Exception {
    Thread.sleep(100);
    List<String> members = new ArrayList<>();
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        if (!p.getFileName().toString().matches("\\d+")) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          // fields after the name: state ppid pgrp ...; zombies awaiting reap do not count
          if (Long.parseLong(f[2]) == pgid && !f[0].equals("Z")) {
            members.add(p.getFileName() + " " + stat);
          }
        } catch (java.io.IOException gone) {
          // exited while we looked
        }
      }
    }
    return members;
  }
}
