package dev.agentdesk.app.termrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.cli.AgentdeskCommand;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code agentdesk term run} in a real terminal: the CLI itself runs in an outer PTY (as it would
 * in a user's terminal window), so raw mode, size, resize forwarding and the exit status are the
 * real thing.
 */
class TermRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The outer terminal: our JVM's child, a real `java … agentdesk term run …` process. */
  static final class Outer implements SessionListener, AutoCloseable {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PtySession pty;

    Outer(List<String> agentdeskArgs, int cols, int rows) {
      this(agentdeskArgs, cols, rows, null, java.util.Map.of());
    }

    /** {@code agentdesk agentdeskArgs…} in {@code cwd} (null: ours) with {@code env} added to ours. */
    Outer(List<String> agentdeskArgs, int cols, int rows, Path cwd, java.util.Map<String, String> env) {
      List<String> argv = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "dev.agentdesk.app.Main"));
      argv.addAll(agentdeskArgs);
      SessionSpec spec = SessionSpec.of(argv).withSize(cols, rows);
      if (cwd != null) {
        spec = spec.withCwd(cwd);
      }
      for (java.util.Map.Entry<String, String> e : env.entrySet()) {
        spec = spec.withEnv(e.getKey(), e.getValue());
      }
      pty = PtySession.start(spec, List.of(this));
    }

    @Override
    public synchronized void onOutput(byte[] chunk) {
      out.writeBytes(chunk);
      notifyAll();
    }

    synchronized String text() {
      return out.toString(StandardCharsets.UTF_8);
    }

    synchronized String await(String needle) throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!text().contains(needle)) {
        long left = (end - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw new AssertionError("no '" + needle + "' within 30 s:\n" + text());
        }
        wait(left);
      }
      return text();
    }

    @Override
    public void close() {
      pty.close();
    }
  }

  @Test
  void runsTheCommandInRawModeWithOurSizeForwardsResizesAndPassesTheExitStatus(@TempDir Path dir) throws Exception {
    Path events = dir.resolve("events.jsonl");
    Path capture = dir.resolve("run.tcap");
    String script = "stty size; trap 'echo resized-to $(stty size)' WINCH; echo ready; "
        // bash runs a trap only once a read returns, so it polls: "read -t 0" reads nothing and
        // says whether a whole line is waiting (a timed read could time out halfway through the
        // line and drop what it read); a read that fails then means the terminal is gone
        + "while ! read -t 0; do sleep 0.05; done; IFS= read -r line || exit 9; echo \"got:$line\"; exit 3";
    try (Outer outer = new Outer(List.of("term", "run", "--events", events.toString(), "--capture",
        capture.toString(), "--", "bash", "-c", script), 111, 33)) {
      String shown = outer.await("ready");
      assertThat(shown).as("the inner PTY has the outer terminal's size").contains("33 111");
      outer.pty.resize(97, 29);
      outer.await("resized-to 29 97");
      outer.pty.write("typed once\r");
      shown = outer.await("got:typed once");
      assertThat(shown.split("typed once", -1)).as("only the inner terminal echoes: the outer one is raw")
          .hasSize(3);
      assertThat(outer.pty.waitFor()).as("the command's exit status").isEqualTo(3);
    }
    List<JsonNode> lines = new ArrayList<>();
    for (String l : Files.readAllLines(events)) {
      lines.add(JSON.readTree(l));
    }
    assertThat(lines).extracting(n -> n.get("type").asText())
        .contains("shell-state", "session-state", "exit");
    JsonNode exit = lines.stream().filter(n -> n.get("type").asText().equals("exit")).findFirst().orElseThrow();
    assertThat(exit.get("exit_code").asInt()).isEqualTo(3);
    assertThat(lines).allSatisfy(n -> assertThat(n.get("at_ms").asLong()).isNotNegative());
    assertThat(Files.size(capture)).isGreaterThan(8);
  }

  @Test
  void withoutATerminalItForwardsPipedInputAndStillPassesTheExitStatus(@TempDir Path dir) throws Exception {
    Path events = dir.resolve("e.jsonl");
    List<String> argv = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.agentdesk.app.Main",
        "term", "run", "--agent", "claude", "--events", events.toString(), "--",
        "sh", "-c", "read -r x; echo \"piped:$x\"; exit 5"));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    p.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(5);
    assertThat(out).contains("piped:hello");
    assertThat(Files.readString(events)).contains("\"agent\":\"claude\"").contains("\"type\":\"exit\"");
  }

  @Test
  void badInputIsAUsageErrorBeforeAnythingRuns(@TempDir Path dir) {
    assertUsage(List.of("term", "run", "--agent", "cursor", "--", "true"), "unknown agent 'cursor'");
    assertUsage(List.of("term", "run", "--events", dir.resolve("no/such/dir/e.jsonl").toString(), "--", "true"),
        "does not exist");
    assertUsage(List.of("term", "run", "--capture", dir.toString(), "--", "true"), "is a directory");
    assertUsage(List.of("term", "run", "--", "/no/such/program-xyz"), "cannot start /no/such/program-xyz");
    assertUsage(List.of("term", "run"), "Missing required parameter");
  }

  private static void assertUsage(List<String> args, String message) {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    int code = cl.execute(args.toArray(String[]::new));
    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).contains(message);
  }
}
