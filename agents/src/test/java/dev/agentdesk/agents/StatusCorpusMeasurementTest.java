package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.CaptureReplay;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.tcap.TcapReader;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The figures of ADR 0016: how many false "awaiting input" states the transcript signal removes.
 *
 * <p>Part A replays the terminal captures of {@code ../shared/corpus/terminal} through the real
 * parser. None of them has a transcript (they come from another project's tests), so there the
 * transcript can only be absent and removes nothing; the count says how many awaiting states the
 * captures hold.
 *
 * <p>Part B uses the real transcripts of {@code ../shared/corpus/transcripts{,-peer}} instead:
 * every assistant message whose text ends in a question is drawn as the agent would draw it
 * (Claude {@code ⏺} message above its composer, Codex {@code •} above {@code ›}) and replayed
 * through the real terminal stack with 12 s of silence; where the silence question fires and the
 * transcript's next line really came 10 s or more later (else new output would have changed the
 * screen first), that is an awaiting state the terminal heuristic would raise. Its truth comes
 * from the transcript's later lines: false when the agent went on working in the same turn (a
 * tool call, a tool result, more text), true when the turn ended or the user spoke next. The
 * status rules are then run on the transcript state at the moment the question fires, and again
 * once the next transcript line has arrived (a live session re-evaluates on every poll).
 */
class StatusCorpusMeasurementTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void terminalCapturesHoldAwaitingStatesButNoTranscripts() throws Exception {
    Path root = SharedCorpus.require("corpus/terminal");
    List<Path> fixtures = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      s.filter(p -> p.toString().endsWith(".raw") || p.toString().endsWith(".txt")).sorted().forEach(fixtures::add);
    }
    int awaiting = 0;
    StringBuilder report = new StringBuilder();
    for (Path f : fixtures) {
      byte[] bytes = Files.readAllBytes(f);
      if (f.toString().endsWith(".txt")) {
        bytes = new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n").replace("\n", "\r\n")
            .getBytes(StandardCharsets.UTF_8);
      }
      Agent agent = f.getFileName().toString().startsWith("codex") ? Agent.CODEX : Agent.CLAUDE;
      int n = 0;
      for (CaptureReplay.TimedEvent e : CaptureReplay.replayAll(TcapReader.open(new ByteArrayInputStream(bytes)), agent,
          120, 50, 12_000)) {
        if (e.event() instanceof ParsedEvent.Question || e.event() instanceof ParsedEvent.ChoicePrompt) {
          n++;
        }
      }
      awaiting += n;
      report.append(root.relativize(f)).append(": ").append(n).append('\n');
      // no capture has a transcript: the rules keep every terminal verdict as it is
      assertThat(StatusRules.combine(Lifecycle.RUNNING, StatusRulesTest.HEURISTIC_Q, TurnState.NONE, 0, false, 0).phase())
          .isEqualTo(Phase.AWAITING_INPUT);
    }
    report.append("captures: ").append(fixtures.size()).append(", awaiting states: ").append(awaiting)
        .append(", with a transcript: 0, removed by the transcript: 0\n");
    write("status-measurement-captures.txt", report.toString());
    assertThat(fixtures).hasSizeGreaterThanOrEqualTo(10);
    assertThat(awaiting).isPositive();
  }

  /** One transcript line, parsed once. */
  private record Line(String raw, JsonNode json, Instant at) {}

  @Test
  void onRealTranscriptsTheTranscriptRemovesFalseAwaitingStatesAndKeepsTrueOnes() throws Exception {
    int questionTexts = 0;
    int silent = 0;
    int candidates = 0;
    int falseOnes = 0;
    int removedAtOnce = 0;
    int removedByNextLine = 0;
    int trueRemoved = 0;
    int trueConfirmed = 0;
    int files = 0;
    StringBuilder detail = new StringBuilder();
    for (Path f : TurnReaderTest.corpusFiles()) {
      String name = f.getFileName().toString();
      if (f.toString().contains("/subagents/") || name.startsWith("agent-")) {
        continue;
      }
      List<Line> lines = read(f);
      boolean codex = lines.stream().anyMatch(l -> "session_meta".equals(l.json().path("type").asText()));
      files++;
      for (int i = 0; i < lines.size(); i++) {
        String text = questionText(lines.get(i).json(), codex);
        if (text == null || lines.get(i).at() == null) {
          continue;
        }
        questionTexts++;
        int next = nextMeaningful(lines, i + 1, codex);
        Instant nextAt = next < lines.size() ? lines.get(next).at() : null;
        if (nextAt != null && nextAt.isBefore(lines.get(i).at().plusSeconds(10))) {
          continue; // the screen changes before the silence timer: no heuristic question
        }
        silent++;
        if (!heuristicFires(text, codex)) {
          continue;
        }
        candidates++;
        boolean isFalse = next < lines.size() && continuesTurn(lines.get(next).json(), codex);
        TurnReader r = new TurnReader(f);
        for (int k = 0; k <= i; k++) {
          r.accept(lines.get(k).raw());
        }
        long questionSeq = r.state().seq();
        boolean clearedNow = cleared(r.state(), questionSeq);
        boolean clearedNext = clearedNow;
        if (!clearedNow && next < lines.size()) {
          for (int k = i + 1; k <= next; k++) {
            r.accept(lines.get(k).raw());
          }
          clearedNext = cleared(r.state(), questionSeq);
        }
        if (isFalse) {
          falseOnes++;
          removedAtOnce += clearedNow ? 1 : 0;
          removedByNextLine += clearedNext ? 1 : 0;
        } else {
          trueRemoved += clearedNow ? 1 : 0;
          TurnReader t = new TurnReader(f);
          for (int k = 0; k <= i; k++) {
            t.accept(lines.get(k).raw());
          }
          trueConfirmed += t.state().phase() == TurnState.Phase.TURN_ENDED ? 1 : 0;
        }
        detail.append(String.format("%s line %d: %s, cleared at once %s, after next line %s: %s%n",
            name, i + 1, isFalse ? "FALSE" : "true", clearedNow, clearedNext, abbreviate(text)));
      }
    }
    String summary = String.format("main transcripts: %d, assistant messages ending in '?': %d, followed by >= 10 s of"
        + " silence: %d, raised by the terminal heuristic: %d, of them false: %d, false removed at once: %d, false removed"
        + " once the next line arrived: %d, true ones removed: %d, true ones confirmed (turn ended): %d%n",
        files, questionTexts, silent, candidates, falseOnes, removedAtOnce, removedByNextLine, trueRemoved, trueConfirmed);
    write("status-measurement-transcripts.txt", summary + detail);
    System.out.print(summary);
    assertThat(candidates).isPositive();
    assertThat(removedByNextLine).isEqualTo(falseOnes); // every false one goes once the transcript shows the work
    assertThat(trueRemoved).isZero(); // and no true question is cleared
  }

  private static boolean cleared(TurnState turn, long questionSeq) {
    AgentStatus s = StatusRules.combine(Lifecycle.RUNNING, StatusRulesTest.HEURISTIC_Q, turn, questionSeq, false, 0);
    return s.phase() != Phase.AWAITING_INPUT;
  }

  /** The visible text of an assistant message whose last line ends with "?", else null. */
  private static String questionText(JsonNode o, boolean codex) {
    String text = null;
    if (codex) {
      JsonNode p = o.path("payload");
      if ("event_msg".equals(o.path("type").asText()) && "agent_message".equals(p.path("type").asText())) {
        text = p.path("message").asText(null);
      }
    } else if ("assistant".equals(o.path("type").asText()) && !o.path("isSidechain").asBoolean(false)) {
      StringBuilder b = new StringBuilder();
      for (JsonNode c : o.path("message").path("content")) {
        if ("text".equals(c.path("type").asText())) {
          b.append(c.path("text").asText());
        }
      }
      text = b.length() == 0 ? null : b.toString();
    }
    if (text == null) {
      return null;
    }
    String t = text.strip();
    return t.endsWith("?") ? t : null;
  }

  /** Index of the next line that says something about the turn (skips bookkeeping lines). */
  private static int nextMeaningful(List<Line> lines, int from, boolean codex) {
    for (int k = from; k < lines.size(); k++) {
      JsonNode o = lines.get(k).json();
      String type = o.path("type").asText();
      if (codex) {
        String pt = o.path("payload").path("type").asText();
        if (List.of("function_call", "custom_tool_call", "local_shell_call", "agent_message", "task_complete",
            "turn_aborted", "user_message").contains(pt)) {
          return k;
        }
      } else if (!o.path("isSidechain").asBoolean(false)
          && (type.equals("assistant") || type.equals("user") || (type.equals("system")
              && List.of("turn_duration", "stop_hook_summary").contains(o.path("subtype").asText())))) {
        if (type.equals("assistant") && !hasBlock(o, "text") && !hasBlock(o, "tool_use")) {
          continue; // thinking only
        }
        return k;
      }
    }
    return lines.size();
  }

  /** True when the next meaningful line shows the agent still working in the same turn. */
  private static boolean continuesTurn(JsonNode o, boolean codex) {
    if (codex) {
      String pt = o.path("payload").path("type").asText();
      return List.of("function_call", "custom_tool_call", "local_shell_call", "agent_message").contains(pt);
    }
    String type = o.path("type").asText();
    if (type.equals("assistant")) {
      return true;
    }
    return type.equals("user") && hasBlock(o, "tool_result");
  }

  private static boolean hasBlock(JsonNode o, String blockType) {
    for (JsonNode c : o.path("message").path("content")) {
      if (blockType.equals(c.path("type").asText())) {
        return true;
      }
    }
    return false;
  }

  /** The message drawn as the agent draws it, replayed through the real parser with 12 s of silence. */
  private static boolean heuristicFires(String text, boolean codex) throws Exception {
    StringBuilder screen = new StringBuilder();
    String[] rows = text.split("\n");
    for (int k = 0; k < rows.length; k++) {
      screen.append(k == 0 ? (codex ? "• " : "⏺ ") : "  ").append(rows[k]).append("\r\n");
    }
    if (codex) {
      screen.append("\r\n› Ask Codex to do anything\r\n\r\n  ⏎ send   ⌃J newline   ⌃C quit\r\n");
    } else {
      String rule = "─".repeat(100);
      screen.append("\r\n").append(rule).append("\r\n❯ \r\n").append(rule).append("\r\n  ? for shortcuts\r\n");
    }
    byte[] bytes = screen.toString().getBytes(StandardCharsets.UTF_8);
    for (CaptureReplay.TimedEvent e : CaptureReplay.replayAll(TcapReader.open(new ByteArrayInputStream(bytes)),
        codex ? Agent.CODEX : Agent.CLAUDE, 120, 50, 12_000)) {
      if (e.event() instanceof ParsedEvent.Question q && !q.confident()) {
        return true;
      }
    }
    return false;
  }

  private static List<Line> read(Path f) throws Exception {
    List<Line> out = new ArrayList<>();
    for (String raw : Files.readAllLines(f, StandardCharsets.UTF_8)) {
      if (raw.isBlank()) {
        continue;
      }
      JsonNode j;
      try {
        j = JSON.readTree(raw);
      } catch (Exception e) {
        continue;
      }
      if (j == null || !j.isObject()) {
        continue;
      }
      out.add(new Line(raw, j, instant(j.path("timestamp").asText(null))));
    }
    return out;
  }

  private static String abbreviate(String s) {
    String one = s.replace('\n', ' ');
    return one.length() <= 90 ? one : "…" + one.substring(one.length() - 89);
  }

  private static void write(String name, String text) throws Exception {
    Path dir = Path.of("target");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(name), text);
  }


  private static Instant instant(String s) {
    try {
      return s == null ? null : Instant.parse(s);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
