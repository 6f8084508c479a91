package dev.agentdesk.app.termrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.cli.AgentdeskCommand;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The real Claude Code under {@code agentdesk term run}, in a real outer terminal, against the
 * scripted model server: the agent is detected from the command, its AskUserQuestion menu is an
 * event with its real options, the key typed in the outer terminal answers it, Claude's own exit
 * keys end it with status 0, and the capture replays to the same menu through {@code term parse}.
 */
class RealClaudeTermRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void claudesMenuIsAnEventAnsweredFromTheTerminalAndTheCaptureReplaysIt(@TempDir Path dir) throws Exception {
    Path project = Files.createDirectories(dir.resolve("project"));
    ClaudeCodeHome claude = new ClaudeCodeHome(dir.resolve("home")).onboarded(List.of(project));
    Path events = dir.resolve("events.jsonl");
    Path capture = dir.resolve("claude.tcap");
    try (ModelServer model = ModelServer.start()) {
      model.add(Script.of("m-run", Reply.tool("AskUserQuestion", "{\"questions\":[{\"question\":"
          + "\"Which color should the button be?\",\"header\":\"Color\",\"multiSelect\":false,\"options\":["
          + "{\"label\":\"Red\",\"description\":\"A red button\"},{\"label\":\"Blue\",\"description\":\"A blue button\"}]}]}"),
          Reply.text("Blue it is.")));
      try (TermRunTest.Outer outer = new TermRunTest.Outer(List.of("term", "run", "--events", events.toString(),
          "--capture", capture.toString(), "--", claude.pin().executable().toString(), "pick a color m-run"), 120, 36,
          project, claude.env(model.baseUrl()))) {
        awaitScreen(outer, "Which color should the button be?");
        JsonNode menu = awaitEvent(events, "the menu", e -> e.path("type").asText().equals("session-state")
            && e.path("state").path("awaiting_input").asBoolean() && e.path("state").path("choice_prompt").isObject());
        assertThat(menu.path("state").path("agent").asText()).as("detected from the command").isEqualTo("claude");
        JsonNode choice = menu.path("state").path("choice_prompt");
        assertThat(choice.path("title").asText()).isEqualTo("Which color should the button be?");
        assertThat(labels(choice)).containsExactly("Red", "Blue", "Type something.", "Chat about this");

        outer.pty.write("2");
        model.await("the answer", r -> "m-run".equals(r.script()) && r.step() == 1, WAIT);
        assertThat(model.requestsFor("m-run").get(model.requestsFor("m-run").size() - 1).body()).contains("Blue");
        awaitScreen(outer, "Blue it is.");
        awaitEvent(events, "idle after the reply", e -> e.path("type").asText().equals("session-state")
            && e.path("state").path("shell").asText().equals("idle") && !e.path("state").path("awaiting_input").asBoolean()
            && !e.path("state").path("choice_prompt").isObject());

        // Claude's own way out: Ctrl-C twice ("Press Ctrl-C again to exit")
        outer.pty.write(new byte[] {3});
        awaitScreen(outer, "again to exit");
        outer.pty.write(new byte[] {3});
        assertThat(outer.pty.waitFor(WAIT)).as("Claude's exit status, passed through").hasValue(0);
      }
    }
    JsonNode exit = awaitEvent(events, "the exit", e -> e.path("type").asText().equals("exit"));
    assertThat(exit.path("exit_code").asInt()).isZero();

    // the capture replays through term parse to the same menu
    StringWriter out = new StringWriter();
    CommandLine cl = AgentdeskCommand.newCommandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(new StringWriter()));
    assertThat(cl.execute("term", "parse", "--agent", "claude", capture.toString())).isZero();
    List<JsonNode> replayed = new ArrayList<>();
    for (String l : out.toString().split("\n")) {
      if (l.startsWith("{")) {
        replayed.add(JSON.readTree(l));
      }
    }
    assertThat(replayed).filteredOn(e -> e.path("type").asText().equals("choice-prompt"))
        .anySatisfy(e -> assertThat(labels(e)).containsExactly("Red", "Blue", "Type something.", "Chat about this"));
  }

  private static List<String> labels(JsonNode choice) {
    List<String> l = new ArrayList<>();
    choice.path("options").forEach(o -> l.add(o.path("label").asText()));
    return l;
  }

  /** Waits for {@code text} on the outer terminal's screen (Claude moves the cursor between words). */
  private static void awaitScreen(TermRunTest.Outer outer, String text) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!String.join("\n", outer.pty.screen().lines()).contains(text)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("no '" + text + "' on the screen within 30 s:\n"
            + String.join("\n", outer.pty.screen().lines()));
      }
      Thread.sleep(20);
    }
  }

  /** The first line of the events file that matches, polling it as term run appends. */
  private static JsonNode awaitEvent(Path events, String what, Predicate<JsonNode> p)
      throws IOException, InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    List<String> last = List.of();
    while (System.nanoTime() < end) {
      if (Files.exists(events)) {
        last = Files.readAllLines(events);
        for (String l : last) {
          if (l.startsWith("{") && l.endsWith("}") && p.test(JSON.readTree(l))) {
            return JSON.readTree(l);
          }
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no event for " + what + " within " + WAIT.toSeconds() + " s; last lines:\n"
        + String.join("\n", last.subList(Math.max(0, last.size() - 5), last.size())));
  }
}
