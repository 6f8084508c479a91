package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.testkit.XvfbExtension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** exec through the protocol, with the operator's --allow-exec. */
@ExtendWith(XvfbExtension.class)
class ExecProtocolTest {
  static final String TOKEN = "exec-token";
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN, true);

  @Test
  void welcomeOffersExecWhenAllowed() {
    try (WireClient c = WireClient.connect(RT.runtime().port())) {
      c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\"" + TOKEN + "\"}");
      JsonNode w = c.next();
      assertThat(w.at("/capabilities/verbs").toString()).contains("\"exec\"");
    }
  }

  @Test
  void bufferedExecAnswersOneResultWithStdinEnvCwdAndExitCode(@TempDir Path dir) throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode r = c.act("x1", "{\"verb\":\"exec\",\"argv\":[\"sh\",\"-c\",\"cat; echo $FOO; pwd; echo oops >&2; exit 7\"],"
          + "\"stdin\":\"piped ✓\\n\",\"env\":{\"FOO\":\"bar\"},\"cwd\":\"" + dir + "\"}");
      assertThat(r.path("type").asText()).isEqualTo("result");
      assertThat(r.path("call_id").asText()).isEqualTo("x1");
      assertThat(r.path("ok").asBoolean()).isTrue();
      JsonNode v = r.path("value");
      assertThat(v.path("stdout").asText()).isEqualTo("piped ✓\nbar\n" + dir.toRealPath() + "\n");
      assertThat(v.path("stderr").asText()).isEqualTo("oops\n");
      assertThat(v.path("exit_code").asInt()).isEqualTo(7);
      assertThat(v.path("timed_out").asBoolean()).isFalse();
      assertThat(v.path("stdout_truncated").asBoolean()).isFalse();
      JsonNode display = c.act("x2", "{\"verb\":\"exec\",\"shell\":\"echo $DISPLAY\"}");
      assertThat(display.at("/value/stdout").asText().trim()).startsWith(":");
    }
  }

  @Test
  void timeoutReportsHonestlyAndCapsSetFlags() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode t = c.act("t1", "{\"verb\":\"exec\",\"shell\":\"echo $$; sleep 20 & sleep 20\",\"timeout_ms\":300}");
      JsonNode v = t.path("value");
      assertThat(v.path("timed_out").asBoolean()).isTrue();
      assertThat(v.path("exit_code").isNull()).isTrue();
      assertThat(v.path("signal").asInt()).isEqualTo(9);
      long pgid = Long.parseLong(v.path("stdout").asText().trim());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      List<String> left = liveGroupMembers(pgid);
      while (!left.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
        left = liveGroupMembers(pgid);
      }
      assertThat(left).as("processes left in group %d", pgid).isEmpty();
      JsonNode big = c.act("t2", "{\"verb\":\"exec\",\"shell\":\"head -c 400000 /dev/zero | tr '\\\\0' z\"}");
      assertThat(big.at("/value/stdout_truncated").asBoolean()).isTrue();
      assertThat(big.at("/value/stdout").asText()).hasSize(256 * 1024);
    }
  }

  @Test
  void streamedExecSendsAckChunksInOrderAndOneExit() {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode ack = c.act("s1", "{\"verb\":\"exec\",\"shell\":\"seq 1 20000; echo tail >&2\",\"stream\":true}");
      assertThat(ack.path("type").asText()).isEqualTo("ack");
      assertThat(ack.path("ok").asBoolean()).isTrue();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      long expectSeq = 0;
      JsonNode exit;
      while (true) {
        JsonNode m = c.next();
        if (m.path("type").asText().equals("exec_exit")) {
          exit = m;
          break;
        }
        assertThat(m.path("type").asText()).isEqualTo("exec_output");
        assertThat(m.path("cause").asText()).isEqualTo("s1");
        assertThat(m.path("seq").asLong()).isEqualTo(expectSeq++);
        byte[] data = Base64.getDecoder().decode(m.path("data_b64").asText());
        assertThat(data.length).isLessThanOrEqualTo(64 * 1024);
        (m.path("channel").asText().equals("stdout") ? out : err).writeBytes(data);
      }
      StringBuilder expected = new StringBuilder();
      for (int i = 1; i <= 20000; i++) {
        expected.append(i).append('\n');
      }
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
      assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("tail\n");
      assertThat(exit.path("exit_code").asInt()).isZero();
      assertThat(exit.path("truncated").asBoolean()).isFalse();
      assertThat(exit.path("cause").asText()).isEqualTo("s1");
      c.assertAlive();
    }
  }

  @Test
  void spawnFailuresAndValidationAreTyped() {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode buffered = c.act("f1", "{\"verb\":\"exec\",\"argv\":[\"no-such-binary-xyz\"]}");
      assertThat(buffered.path("type").asText()).isEqualTo("result");
      assertThat(buffered.path("error").asText()).startsWith("exec_spawn_failed: ");
      JsonNode ack = c.act("f2", "{\"verb\":\"exec\",\"argv\":[\"no-such-binary-xyz\"],\"stream\":true}");
      assertThat(ack.path("ok").asBoolean()).isTrue();
      JsonNode exit = c.next();
      assertThat(exit.path("type").asText()).isEqualTo("exec_exit");
      assertThat(exit.path("exit_code").isNull()).isTrue();
      assertThat(exit.path("error").asText()).startsWith("exec_spawn_failed: ");
      assertThat(c.act("f3", "{\"verb\":\"exec\",\"argv\":[\"bash\"],\"pty\":true}").path("error").asText())
          .startsWith("pty is reserved (not supported in v0)");
      assertThat(c.act("f4", "{\"verb\":\"exec\",\"argv\":[\"ls\"],\"shell\":\"ls\"}").path("error").asText())
          .startsWith("exec takes exactly one of `argv` or `shell`, not both");
      assertThat(c.act("f5", "{\"verb\":\"exec\"}").path("error").asText())
          .isEqualTo("exec requires `argv` (default form) or `shell` (explicit opt-in)");
      assertThat(c.act("f6", "{\"verb\":\"exec\",\"argv\":[]}").path("error").asText())
          .isEqualTo("exec argv must not be empty");
      assertThat(c.act("f7", "{\"verb\":\"exec\",\"argv\":[\"true\"],\"timeout_ms\":0}").path("error").asText())
          .isEqualTo("exec timeout_ms must be at least 1");
      c.assertAlive();
    }
  }

  @Test
  void aFifthConcurrentExecIsRefusedAndClosingTheConnectionKillsChildren(@TempDir Path dir) throws Exception {
    Path pids = dir.resolve("pids");
    WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
    for (int i = 0; i < 4; i++) {
      JsonNode ack = c.act("k" + i, "{\"verb\":\"exec\",\"shell\":\"echo $$ >> " + pids + "; sleep 60\",\"stream\":true}");
      assertThat(ack.path("ok").asBoolean()).as("%s", ack).isTrue();
    }
    JsonNode fifth = c.act("k5", "{\"verb\":\"exec\",\"argv\":[\"true\"],\"stream\":true}");
    assertThat(fifth.path("error").asText()).isEqualTo("max concurrent execs reached (4)");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline && (!Files.exists(pids) || Files.readAllLines(pids).size() < 4)) {
      Thread.sleep(20);
    }
    List<String> started = Files.readAllLines(pids);
    assertThat(started).hasSize(4);
    c.close();
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    boolean anyAlive = true;
    while (anyAlive && System.nanoTime() < deadline) {
      anyAlive = started.stream().anyMatch(p -> Files.exists(Path.of("/proc", p.trim())) && !zombie(p.trim()));
      Thread.sleep(20);
    }
    assertThat(anyAlive).as("children of the closed connection are gone").isFalse();
  }

  /** Non-zombie processes whose process group is {@code pgid}. */
  static List<String> liveGroupMembers(long pgid) throws java.io.IOException {
    List<String> out = new java.util.ArrayList<>();
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.matches("\\d+")) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          if (Long.parseLong(f[2]) == pgid && !f[0].equals("Z")) {
            out.add(name);
          }
        } catch (java.io.IOException gone) {
          // exited meanwhile
        }
      }
    }
    return out;
  }

  private static boolean zombie(String pid) {
    try {
      String stat = Files.readString(Path.of("/proc", pid, "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (Exception gone) {
      return true;
    }
  }
}
