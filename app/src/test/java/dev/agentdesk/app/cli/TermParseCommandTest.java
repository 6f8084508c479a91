package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TermParseCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private record Run(int exit, String out, String err) {
    List<JsonNode> events() throws IOException {
      List<JsonNode> list = new ArrayList<>();
      for (String line : out.split("\n")) {
        if (!line.isBlank()) {
          list.add(JSON.readTree(line));
        }
      }
      return list;
    }
  }

  private static Run run(String... args) {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void replaysTheRecordedPlanPickerToOneLowConfidenceQuestion() throws IOException {
    Path raw = SharedCorpus.require("corpus/terminal/agent_prompts/claude-plan-picker.raw");
    Run r = run("term", "parse", "--agent", "claude", raw.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> questions = r.events().stream().filter(e -> e.get("type").asText().equals("question")).toList();
    assertThat(questions).hasSize(1);
    assertThat(questions.get(0).get("confident").asBoolean()).isFalse();
    assertThat(r.events()).allMatch(e -> e.has("at_ms"));
  }

  @Test
  void inputRecordsAndTimestampsDriveTheTimers() throws IOException {
    Path tcap = dir.resolve("s.tcap");
    try (TcapWriter w = TcapWriter.create(tcap)) {
      byte[] q = "I found two configs. Should I merge them?\r\n".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.OUTPUT, 0, q, 0, q.length);
      byte[] a = "y\r".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.INPUT, 20_000_000, a, 0, a.length);
      byte[] q2 = "Shall I also push it?\r\n".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.OUTPUT, 21_000_000, q2, 0, q2.length);
    }
    Run r = run("term", "parse", "--agent", "goose", "--tail-ms", "12000", tcap.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> questions = r.events().stream().filter(e -> e.get("type").asText().equals("question")).toList();
    assertThat(questions).hasSize(2);
    assertThat(questions.get(0).get("at_ms").asLong()).isEqualTo(10_000);
    assertThat(questions.get(0).get("_turn_epoch").asLong()).isZero();
    assertThat(questions.get(1).get("at_ms").asLong()).isEqualTo(31_000);
    assertThat(questions.get(1).get("_turn_epoch").asLong()).isEqualTo(1);
    // Without the tail the second silence timer never fires.
    Run shortTail = run("term", "parse", "--agent", "goose", "--tail-ms", "0", tcap.toString());
    assertThat(shortTail.events().stream().filter(e -> e.get("type").asText().equals("question"))).hasSize(1);
  }

  @Test
  void truncatedCaptureIsAUsageErrorNamingTheOffsetAfterPrintingWhatWasRead() throws IOException {
    Path tcap = dir.resolve("cut.tcap");
    try (TcapWriter w = TcapWriter.create(tcap)) {
      byte[] p = "https://github.com/acme/widgets/pull/7\r\n".getBytes(StandardCharsets.UTF_8);
      w.write(Direction.OUTPUT, 0, p, 0, p.length);
      w.write(Direction.OUTPUT, 1000, p, 0, p.length);
    }
    byte[] all = Files.readAllBytes(tcap);
    Files.write(tcap, Arrays.copyOf(all, all.length - 5));
    Run r = run("term", "parse", tcap.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("byte offset " + (9 + 13 + 40)).contains("truncated", "payload").doesNotContain("Exception");
    assertThat(r.out()).contains("\"pr-url\"");
  }

  @Test
  void badArgumentsAreUsageErrors() {
    Run agent = run("term", "parse", "--agent", "emacs", dir.resolve("x").toString());
    assertThat(agent.exit()).isEqualTo(2);
    assertThat(agent.err()).contains("unknown agent 'emacs'").contains("claude, codex");
    Run missing = run("term", "parse", dir.resolve("nope.tcap").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");
    Run size = run("term", "parse", "--cols", "0", dir.resolve("x").toString());
    assertThat(size.exit()).isEqualTo(2);
    Run folder = run("term", "parse", dir.toString());
    assertThat(folder.exit()).isEqualTo(2);
    assertThat(folder.err()).contains("is a directory");
  }
}
