package dev.agentdesk.terminal.vt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our VT engine against the real xterm.js on what the real Claude Code draws: a live session (its
 * banner, a streamed reply, AskUserQuestion's menu, the answer, the exit) recorded byte for byte
 * from a real PTY, then rendered by both at many points of the stream. Text, cursor and screen
 * choice must be equal at each, as on the generated streams of {@link XtermDifferentialTest}.
 */
class RealClaudeVtTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int COLS = 120;
  private static final int ROWS = 36;

  /** Every chunk the PTY gave, in order. */
  private static final class Recorder implements SessionListener {
    private final ByteArrayOutputStream all = new ByteArrayOutputStream();
    private final List<Integer> ends = new ArrayList<>();

    @Override
    public synchronized void onOutput(byte[] chunk) {
      all.writeBytes(chunk);
      ends.add(all.size());
    }

    synchronized byte[] bytes() {
      return all.toByteArray();
    }

    synchronized List<Integer> chunkEnds() {
      return List.copyOf(ends);
    }
  }

  @AfterAll
  static void stopXterm() {
    XtermDifferentialTest.stopXterm();
  }

  @Test
  void claudesScreensRenderAsInXtermJsAtEveryPointCompared(@TempDir Path dir) throws Exception {
    Path project = Files.createDirectories(dir.resolve("project"));
    ClaudeCodeHome claude = new ClaudeCodeHome(dir.resolve("home")).onboarded(List.of(project));
    Recorder rec = new Recorder();
    try (ModelServer model = ModelServer.start()) {
      // streamed markdown text, then the question in the same message
      model.add(Script.of("m-vt", new Reply.Message(List.of(
              new Reply.Text("Let me ask first: *which* colour, and **why** it matters.\n\n- one\n- two"),
              new Reply.ToolUse("toolu_vt1", "AskUserQuestion", "{\"questions\":[{\"question\":"
                  + "\"Which color should the button be?\",\"header\":\"Color\",\"multiSelect\":false,\"options\":["
                  + "{\"label\":\"Red\",\"description\":\"A red button\"},{\"label\":\"Blue\",\"description\":"
                  + "\"A blue button\"}]}]}")),
              "tool_use", Reply.Usage.SMALL, Duration.ofMillis(40), 8),
          Reply.text("Blue it is: a calm, readable button.")));
      SessionSpec spec = SessionSpec.of(claude.pin().executable().toString(), "pick a color m-vt")
          .withSize(COLS, ROWS).withCwd(project);
      for (Map.Entry<String, String> e : claude.env(model.baseUrl()).entrySet()) {
        spec = spec.withEnv(e.getKey(), e.getValue());
      }
      try (PtySession pty = PtySession.start(spec, List.of(rec))) {
        awaitScreen(pty, "Which color should the button be?");
        pty.write("2");
        awaitScreen(pty, "a calm, readable button.");
        pty.write(new byte[] {3});
        awaitScreen(pty, "again to exit");
        pty.write(new byte[] {3});
        assertThat(pty.waitFor(WAIT)).hasValue(0);
      }
    }
    byte[] bytes = rec.bytes();
    List<Integer> ends = rec.chunkEnds();
    assertThat(bytes.length).as("Claude drew something").isGreaterThan(2_000);
    // every chunk boundary would be O(n²); every few chunks and the end cover each stage of the session
    int step = Math.max(1, ends.size() / 40);
    int compared = 0;
    for (int i = 0; i < ends.size(); i += step) {
      XtermDifferentialTest.assertSameScreen(COLS, ROWS, java.util.Arrays.copyOf(bytes, ends.get(i)),
          "Claude's output up to byte " + ends.get(i) + " of " + bytes.length);
      compared++;
    }
    XtermDifferentialTest.assertSameScreen(COLS, ROWS, bytes, "Claude's whole output (" + bytes.length + " bytes)");
    assertThat(compared).isGreaterThanOrEqualTo(Math.min(ends.size(), 20));
  }

  private static void awaitScreen(PtySession pty, String text) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!String.join("\n", pty.screen().lines()).contains(text)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("no '" + text + "' within 30 s; screen:\n" + String.join("\n", pty.screen().lines()));
      }
      Thread.sleep(20);
    }
  }
}
