package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The turn state from transcript lines in the Claude Code and Codex formats. */
class TurnReaderTest {
  @TempDir Path tmp;

  static String claudeUser(String text) {
    return "{\"type\":\"user\",\"isSidechain\":false,\"uuid\":\"u\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}";
  }

  static String claudeTool(String id, String name, String input, String stop) {
    return "{\"type\":\"assistant\",\"isSidechain\":false,\"uuid\":\"a\",\"message\":{\"role\":\"assistant\",\"content\":"
        + "[{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"input\":" + input + "}],"
        + "\"stop_reason\":" + (stop == null ? "null" : "\"" + stop + "\"") + "}}";
  }

  static String claudeResult(String id) {
    return "{\"type\":\"user\",\"isSidechain\":false,\"uuid\":\"r\",\"message\":{\"role\":\"user\",\"content\":"
        + "[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id + "\",\"content\":\"ok\"}]}}";
  }

  static String claudeText(String text, String stop) {
    return "{\"type\":\"assistant\",\"isSidechain\":false,\"uuid\":\"t\",\"message\":{\"role\":\"assistant\",\"content\":"
        + "[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"stop_reason\":" + (stop == null ? "null" : "\"" + stop + "\"") + "}}";
  }

  TurnReader reader(List<String> lines) throws Exception {
    Path f = tmp.resolve("t.jsonl");
    Files.write(f, lines);
    TurnReader r = new TurnReader(f);
    r.poll();
    return r;
  }

  @Test
  void claudeTurnFromPromptThroughToolsToEndTurn() throws Exception {
    Path f = tmp.resolve("c.jsonl");
    Files.writeString(f, "");
    TurnReader r = new TurnReader(f);
    assertThat(r.poll()).isFalse();
    assertThat(r.state()).isEqualTo(TurnState.NONE);
    append(f, claudeUser("fix it"));
    r.poll();
    assertThat(r.state().phase()).isEqualTo(TurnState.Phase.IN_TURN);
    assertThat(r.state().lastUserSeq()).isEqualTo(1);
    append(f, claudeTool("t1", "Bash", "{\"command\":\"make\"}", "tool_use"));
    r.poll();
    assertThat(r.state().pendingTools()).isEqualTo(1);
    append(f, claudeResult("t1"));
    r.poll();
    assertThat(r.state().phase()).isEqualTo(TurnState.Phase.IN_TURN); // the model answers the result next
    append(f, claudeText("Should I also update the docs?", null));
    r.poll();
    // text with a null stop reason: the model spoke, nothing says whether more follows
    assertThat(r.state().pendingTools()).isZero();
    assertThat(r.state().phase()).isEqualTo(TurnState.Phase.UNKNOWN);
    append(f, claudeText("Should I also update the docs?", "end_turn"));
    r.poll();
    assertThat(r.state().phase()).isEqualTo(TurnState.Phase.TURN_ENDED);
    assertThat(r.state().seq()).isEqualTo(5);
  }

  @Test
  void aHalfWrittenLastLineWaitsForItsNewline() throws Exception {
    Path f = tmp.resolve("h.jsonl");
    String line = claudeUser("hello");
    Files.writeString(f, line.substring(0, 20));
    TurnReader r = new TurnReader(f);
    assertThat(r.poll()).isFalse();
    Files.writeString(f, line.substring(20) + "\n", StandardOpenOption.APPEND);
    assertThat(r.poll()).isTrue();
    assertThat(r.state().lastUserSeq()).isEqualTo(1);
  }

  @Test
  void questionToolsArePendingUntilTheirResult() throws Exception {
    String ask = claudeTool("q1", "AskUserQuestion", "{\"questions\":[{\"question\":\"Which database?\",\"options\":[]}]}",
        "tool_use");
    TurnReader r = reader(List.of(claudeUser("go"), ask));
    assertThat(r.state().pendingQuestion()).isEqualTo("Which database?");
    assertThat(r.state().pendingQuestionTool()).isEqualTo("AskUserQuestion");
    assertThat(r.state().pendingQuestionSeq()).isEqualTo(2);
    assertThat(reader(List.of(claudeUser("go"), ask, claudeResult("q1"))).state().pendingQuestion()).isNull();
    TurnReader plan = reader(List.of(claudeUser("plan"), claudeTool("p1", "ExitPlanMode", "{\"plan\":\"1. a\"}", "tool_use")));
    assertThat(plan.state().pendingQuestion()).isEqualTo("Approve the plan?");
    // a sidechain (subagent) line never counts for the main turn
    String side = ask.replace("\"isSidechain\":false", "\"isSidechain\":true");
    assertThat(reader(List.of(claudeUser("go"), side)).state().pendingQuestion()).isNull();
  }

  @Test
  void claudeSystemTurnLinesEndTheTurn() throws Exception {
    assertThat(reader(List.of(claudeUser("go"), "{\"type\":\"system\",\"subtype\":\"turn_duration\",\"durationMs\":5}"))
        .state().phase()).isEqualTo(TurnState.Phase.TURN_ENDED);
    assertThat(reader(List.of(claudeUser("go"), "{\"type\":\"system\",\"subtype\":\"stop_hook_summary\"}"))
        .state().phase()).isEqualTo(TurnState.Phase.TURN_ENDED);
    // a slash command echo is not a prompt
    assertThat(reader(List.of(claudeUser("<command-name>/clear</command-name>"))).state().lastUserSeq()).isZero();
  }

  @Test
  void codexTasksAndCalls() throws Exception {
    String started = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"task_started\"}}";
    String user = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"go\"}}";
    String call = "{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"call_id\":\"c1\"}}";
    String out = "{\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"c1\"}}";
    String done = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"task_complete\"}}";
    assertThat(reader(List.of(started, user, call)).state().pendingTools()).isEqualTo(1);
    assertThat(reader(List.of(started, user, call, out)).state().phase()).isEqualTo(TurnState.Phase.IN_TURN);
    String msg = "{\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"Next?\"}}";
    assertThat(reader(List.of(started, user, msg)).state().phase()).isEqualTo(TurnState.Phase.IN_TURN);
    assertThat(reader(List.of(user, msg)).state().phase()).isEqualTo(TurnState.Phase.UNKNOWN);
    TurnState s = reader(List.of(started, user, call, out, done)).state();
    assertThat(s.phase()).isEqualTo(TurnState.Phase.TURN_ENDED);
    assertThat(s.lastUserSeq()).isEqualTo(2);
    assertThat(s.pendingTools()).isZero();
  }

  @Test
  void everyCorpusTranscriptReadsToAConsistentState() throws Exception {
    List<Path> files = corpusFiles();
    assertThat(files).hasSizeGreaterThan(40);
    int ended = 0;
    for (Path f : files) {
      TurnReader r = new TurnReader(f);
      while (r.poll()) {
        // files over the per-poll limit take several polls
      }
      TurnState s = r.state();
      assertThat(s.seq()).as(f.toString()).isPositive();
      assertThat(s.pendingQuestionSeq()).as(f.toString()).isLessThanOrEqualTo(s.seq());
      if (s.phase() == TurnState.Phase.TURN_ENDED) {
        ended++;
      }
    }
    assertThat(ended).isPositive();
  }

  static List<Path> corpusFiles() throws Exception {
    List<Path> out = new java.util.ArrayList<>();
    for (String dir : new String[] {"corpus/transcripts", "corpus/transcripts-peer"}) {
      try (Stream<Path> s = Files.walk(SharedCorpus.require(dir))) {
        s.filter(p -> p.toString().endsWith(".jsonl")).sorted().forEach(out::add);
      }
    }
    return out;
  }

  private static void append(Path f, String line) throws Exception {
    Files.writeString(f, line + "\n", StandardOpenOption.APPEND);
  }
}
