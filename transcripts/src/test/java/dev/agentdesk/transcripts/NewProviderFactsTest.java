package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per format fact of Gemini CLI, Copilot CLI and Cursor, on files written here as the agents write them. */
class NewProviderFactsTest {
  private static final String META = "{\"sessionId\":\"g1\",\"projectHash\":\"ab\",\"startTime\":\"2026-04-29T21:39:22.319Z\","
      + "\"kind\":\"main\"}\n";
  private static final String USER = "{\"id\":\"u1\",\"timestamp\":\"2026-04-29T21:39:33.000Z\",\"type\":\"user\","
      + "\"content\":[{\"text\":\"List files\"}]}\n";
  private static final String CALL = "{\"id\":\"a1\",\"timestamp\":\"2026-04-29T21:39:35.000Z\",\"type\":\"gemini\","
      + "\"content\":\"\",\"model\":\"gemini-2.5-pro\",\"tokens\":{\"input\":1000,\"output\":10,\"cached\":600,\"thoughts\":5,"
      + "\"tool\":0},\"toolCalls\":[{\"id\":\"c1\",\"name\":\"run_shell_command\",\"args\":{\"command\":\"ls\"},"
      + "\"status\":\"executing\"}]}\n";
  private static final String CALL_DONE = CALL.replace("\"status\":\"executing\"",
      "\"status\":\"success\",\"result\":[{\"functionResponse\":{\"id\":\"c1\",\"name\":\"run_shell_command\","
          + "\"response\":{\"output\":\"a.txt\"}}}]").replace("\"content\":\"\"", "\"content\":\"Listing.\"");
  private static final String ANSWER = "{\"id\":\"a2\",\"timestamp\":\"2026-04-29T21:39:45.000Z\",\"type\":\"gemini\","
      + "\"content\":\"There is a.txt.\",\"model\":\"gemini-2.5-pro\",\"tokens\":{\"input\":1200,\"output\":20,\"cached\":1000,"
      + "\"thoughts\":0,\"tool\":0}}\n";

  private static Path chat(Path dir, String... lines) throws IOException {
    Path chats = Files.createDirectories(dir.resolve("tmp/myproj/chats"));
    Path f = chats.resolve("session-2026-04-29T21-39-g1.jsonl");
    Files.writeString(f, String.join("", lines));
    return f;
  }

  @Test
  void geminiAMessageReappendedUnderItsIdReplacesItsCopyAndCountsOnce(@TempDir Path dir) throws IOException {
    Path f = chat(dir, META, USER, CALL, "{\"$set\":{\"lastUpdated\":\"2026-04-29T21:39:36Z\"}}\n", CALL_DONE, ANSWER);
    Transcripts.FreshParse p = Transcripts.parse(Provider.GEMINI, f);
    SessionDetail d = p.detail();
    assertThat(p.problems()).isEmpty();
    assertThat(d.session().id()).isEqualTo("g1");
    assertThat(d.session().project()).isEqualTo("myproj");
    assertThat(d.session().messageCount()).isEqualTo(3);
    // input excludes the cached part; thoughts are output
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(400 + 200, 15 + 20, 600 + 1000, 0));
    List<DetailEntry> e = d.entries();
    assertThat(e).hasSize(4);
    assertThat(e.get(1)).isInstanceOfSatisfying(DetailEntry.Message.class, m -> assertThat(m.text()).isEqualTo("Listing."));
    // the replacing copy keeps the place of the first, and its call got its result
    assertThat(e.get(2)).isInstanceOfSatisfying(DetailEntry.ToolCall.class,
        c -> assertThat(c.result().content()).isEqualTo("a.txt"));
  }

  @Test
  void geminiRewindTakesBackTheNamedMessageAndWhatFollowsButNotTheirTokens(@TempDir Path dir) throws IOException {
    Path f = chat(dir, META, USER, CALL_DONE, ANSWER);
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.GEMINI, dir.resolve("tmp")));
      h.importFrom(roots, ImportListener.NONE);
      Files.writeString(f, "{\"$rewindTo\":\"a2\"}\n", StandardOpenOption.APPEND);
      h.importFrom(roots, ImportListener.NONE);
      SessionDetail fresh = Transcripts.parse(Provider.GEMINI, f).detail();
      assertThat(DetailJson.write(h.detail("g1"))).isEqualTo(DetailJson.write(fresh));
      assertThat(fresh.entries()).noneMatch(x -> x instanceof DetailEntry.Message m && "a2".equals(m.uuid()));
      assertThat(fresh.session().messageCount()).isEqualTo(2);
      assertThat(fresh.session().usage().output()).isEqualTo(15 + 20);
    }
  }

  @Test
  void geminiSubagentsShaFoldersAndDefaults(@TempDir Path dir) throws IOException {
    Path sha = Files.createDirectories(dir.resolve("tmp").resolve("a".repeat(64)).resolve("chats/g1"));
    Files.writeString(sha.getParent().getParent().resolve(".project_root"), "/home/me/work/api\n");
    Path sub = sha.resolve("sub1.jsonl");
    Files.writeString(sub, META.replace("g1", "sub1").replace("main", "subagent") + USER);
    SessionDetail d = Transcripts.parse(Provider.GEMINI, sub).detail();
    assertThat(d.session().parentSessionId()).isEqualTo("g1");
    assertThat(d.session().cwd()).isEqualTo("/home/me/work/api");
    assertThat(d.session().project()).isEqualTo("api");
    assertThat(HistoryFolders.defaults(Provider.GEMINI, Map.of("HOME", "/h"))).containsExactly(Path.of("/h/.gemini/tmp"));
    assertThat(HistoryFolders.defaults(Provider.GEMINI, Map.of("HOME", "/h", "GEMINI_CLI_HOME", "/g")))
        .containsExactly(Path.of("/g/.gemini/tmp"));
  }

  @Test
  void geminiModelsArePricedByThePriceTable(@TempDir Path dir) throws IOException {
    chat(dir, META, USER, CALL_DONE, ANSWER);
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.GEMINI, dir.resolve("tmp"))), ImportListener.NONE);
      UsageReport r = h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null);
      assertThat(r.rows()).singleElement().satisfies(row -> {
        assertThat(row.key()).isEqualTo("gemini-2.5-pro");
        assertThat(row.unpricedResponses()).isZero();
        assertThat(row.costUsd()).isPositive();
      });
    }
  }

  @Test
  void copilotTokensComeFromTheShutdownsModelMetricsAndSubagentEventsAreTheirCallsThread(@TempDir Path dir)
      throws IOException {
    Path f = Files.createDirectories(dir.resolve("session-state/s1")).resolve("events.jsonl");
    Files.writeString(f, String.join("\n",
        "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"s1\",\"copilotVersion\":\"1.0.11\",\"context\":{\"cwd\":\"/w/app\"}},\"id\":\"e1\",\"timestamp\":\"2026-03-26T17:50:34.263Z\"}",
        "{\"type\":\"user.message\",\"data\":{\"content\":\"Explore\"},\"id\":\"e2\",\"timestamp\":\"2026-03-26T17:50:35.000Z\"}",
        "{\"type\":\"assistant.message\",\"data\":{\"content\":\"\",\"toolRequests\":[{\"toolCallId\":\"t1\",\"name\":\"task\",\"arguments\":{\"prompt\":\"look\"}}]},\"id\":\"e3\",\"timestamp\":\"2026-03-26T17:50:36.000Z\"}",
        "{\"type\":\"subagent.started\",\"data\":{\"toolCallId\":\"t1\",\"agentName\":\"explore\",\"agentDescription\":\"Looks\"},\"id\":\"e4\",\"timestamp\":\"2026-03-26T17:50:36.100Z\"}",
        "{\"type\":\"assistant.message\",\"data\":{\"parentToolCallId\":\"t1\",\"content\":\"Found it.\",\"toolRequests\":[]},\"id\":\"e5\",\"timestamp\":\"2026-03-26T17:50:37.000Z\"}",
        "{\"type\":\"tool.execution_complete\",\"data\":{\"toolCallId\":\"t1\",\"success\":true,\"result\":{\"content\":\"done\"}},\"id\":\"e6\",\"timestamp\":\"2026-03-26T17:50:38.000Z\"}",
        "{\"type\":\"abort\",\"data\":{\"reason\":\"user initiated\"},\"id\":\"e7\",\"timestamp\":\"2026-03-26T17:50:39.000Z\"}",
        "{\"type\":\"session.shutdown\",\"data\":{\"modelMetrics\":{\"gpt-5-mini\":{\"usage\":{\"inputTokens\":1000,\"outputTokens\":50,\"cacheReadTokens\":800,\"cacheWriteTokens\":0}}}},\"id\":\"e8\",\"timestamp\":\"2026-03-26T17:50:40.000Z\"}",
        ""));
    SessionDetail d = Transcripts.parse(Provider.COPILOT, f).detail();
    assertThat(d.session().id()).isEqualTo("s1");
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(200, 50, 800, 0));
    assertThat(d.session().messageCount()).isEqualTo(1);
    DetailEntry.ToolCall task = d.entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
        .map(DetailEntry.ToolCall.class::cast).findFirst().orElseThrow();
    assertThat(task.subagent().type()).isEqualTo("explore");
    assertThat(task.subagent().entries()).singleElement().isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("Found it."));
    assertThat(d.entries()).anySatisfy(x -> assertThat(x).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.contentType()).isEqualTo(ContentTypes.INTERRUPT)));
    assertThat(HistoryFolders.defaults(Provider.COPILOT, Map.of("HOME", "/h", "COPILOT_HOME", "/c")))
        .containsExactly(Path.of("/c/session-state"));
  }

  /**
   * Each shutdown covers one run of the process (a resumed session writes one per run: they add
   * up); a message's own outputTokens are inside its run's rollup and are not counted again
   * (docs/session-detail.md, "Gemini and Copilot token counts").
   */
  @Test
  void copilotShutdownsOfAResumedSessionAddUpAndPerMessageOutputIsNotCountedTwice(@TempDir Path dir) throws IOException {
    Path f = Files.createDirectories(dir.resolve("session-state/s2")).resolve("events.jsonl");
    String shutdown = "{\"type\":\"session.shutdown\",\"data\":{\"modelMetrics\":{\"gpt-5-mini\":{\"usage\":{"
        + "\"inputTokens\":%d,\"outputTokens\":%d,\"cacheReadTokens\":%d,\"cacheWriteTokens\":0}}}},\"id\":\"%s\","
        + "\"timestamp\":\"2026-03-26T18:0%d:00.000Z\"}";
    Files.writeString(f, String.join("\n",
        "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"s2\",\"context\":{\"cwd\":\"/w\"}},\"id\":\"e1\",\"timestamp\":\"2026-03-26T18:00:00.000Z\"}",
        "{\"type\":\"user.message\",\"data\":{\"content\":\"one\"},\"id\":\"e2\",\"timestamp\":\"2026-03-26T18:00:01.000Z\"}",
        "{\"type\":\"assistant.message\",\"data\":{\"content\":\"first\",\"toolRequests\":[],\"outputTokens\":40},\"id\":\"e3\",\"timestamp\":\"2026-03-26T18:00:02.000Z\"}",
        String.format(shutdown, 1000, 40, 600, "e4", 1),
        "{\"type\":\"session.resume\",\"data\":{},\"id\":\"e5\",\"timestamp\":\"2026-03-26T18:05:00.000Z\"}",
        "{\"type\":\"user.message\",\"data\":{\"content\":\"two\"},\"id\":\"e6\",\"timestamp\":\"2026-03-26T18:05:01.000Z\"}",
        "{\"type\":\"assistant.message\",\"data\":{\"content\":\"second\",\"toolRequests\":[],\"outputTokens\":25},\"id\":\"e7\",\"timestamp\":\"2026-03-26T18:05:02.000Z\"}",
        String.format(shutdown, 700, 25, 500, "e8", 6), ""));
    Transcripts.FreshParse p = Transcripts.parse(Provider.COPILOT, f);
    assertThat(p.problems()).isEmpty();
    assertThat(p.detail().session().usage()).isEqualTo(new TokenUsage(400 + 200, 40 + 25, 600 + 500, 0));
    assertThat(p.detail().session().messageCount()).isEqualTo(4);
  }

  /**
   * Copilot 1.0.102 writes a {@code session.usage_record} as each response ends (the live counts);
   * its shutdown's totals then add only what no record of that run covered, and a run whose records
   * cover all of it adds nothing (made as the real 1.0.102 writes them: docs/real-agents.md).
   */
  @Test
  void copilotUsageRecordsAreResponsesAndTheShutdownAddsOnlyWhatTheyMissed(@TempDir Path dir) throws IOException {
    Path f = Files.createDirectories(dir.resolve("session-state/s3")).resolve("events.jsonl");
    String record = "{\"type\":\"session.usage_record\",\"data\":{\"usage\":{\"model\":\"gpt-4.1\",\"inputTokens\":%d,"
        + "\"outputTokens\":%d,\"cacheReadTokens\":%d,\"cacheWriteTokens\":0,\"cost\":0.0,\"initiator\":\"user\"}},"
        + "\"id\":\"%s\",\"timestamp\":\"2026-12-02T01:4%d:00.000Z\"}";
    String shutdown = "{\"type\":\"session.shutdown\",\"data\":{\"modelMetrics\":{\"gpt-4.1\":{\"requests\":{\"count\":%d},"
        + "\"usage\":{\"inputTokens\":%d,\"outputTokens\":%d,\"cacheReadTokens\":%d,\"cacheWriteTokens\":0}}}},"
        + "\"id\":\"%s\",\"timestamp\":\"2026-12-02T01:4%d:30.000Z\"}";
    List<String> first = List.of(
        "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"s3\",\"context\":{\"cwd\":\"/w\"}},\"id\":\"e1\",\"timestamp\":\"2026-12-02T01:40:00.000Z\"}",
        "{\"type\":\"user.message\",\"data\":{\"content\":\"one\"},\"id\":\"e2\",\"timestamp\":\"2026-12-02T01:40:01.000Z\"}",
        String.format(record, 100, 10, 40, "e3", 1),
        String.format(record, 120, 7, 0, "e4", 2),
        "{\"type\":\"assistant.message\",\"data\":{\"content\":\"done\",\"toolRequests\":[]},\"id\":\"e5\",\"timestamp\":\"2026-12-02T01:42:01.000Z\"}");
    Files.writeString(f, String.join("\n", first) + "\n");
    // Live: the records count before the session ends.
    Transcripts.FreshParse live = Transcripts.parse(Provider.COPILOT, f);
    assertThat(live.detail().session().usage()).isEqualTo(new TokenUsage(60 + 120, 17, 40, 0));
    Files.writeString(f, String.join("\n", first) + "\n" + String.join("\n",
        // The first run's shutdown: all of it was in its two records.
        String.format(shutdown, 2, 220, 17, 40, "e6", 3),
        "{\"type\":\"session.resume\",\"data\":{},\"id\":\"e7\",\"timestamp\":\"2026-12-02T01:45:00.000Z\"}",
        String.format(record, 50, 5, 0, "e8", 6),
        // The second run's shutdown counts one response more than its records (one was never written).
        String.format(shutdown, 2, 80, 9, 10, "e9", 7), ""));
    Transcripts.FreshParse p = Transcripts.parse(Provider.COPILOT, f);
    assertThat(p.problems()).isEmpty();
    assertThat(p.detail().session().usage()).isEqualTo(new TokenUsage(180 + 50 + 20, 17 + 5 + 4, 40 + 10, 0));
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.COPILOT, dir.resolve("session-state"))), ImportListener.NONE);
      UsageReport r = h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null);
      assertThat(r.rows()).singleElement().satisfies(row -> assertThat(row.responses()).isEqualTo(4));
    }
  }

  @Test
  void cursorResultsAnswerIdlessCallsInOrderAndSubagentsGetTheirParent(@TempDir Path dir) throws IOException {
    Path t = Files.createDirectories(dir.resolve("projects/home-me-api/agent-transcripts/c1"));
    Files.writeString(t.resolve("c1.jsonl"), String.join("\n",
        "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"<user_query>\\nRead both\\n</user_query>\"}]}}",
        "{\"role\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Read\",\"input\":{\"path\":\"a\"}},"
            + "{\"type\":\"tool_use\",\"name\":\"Read\",\"input\":{\"path\":\"b\"}}]}}",
        "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":\"A\"},{\"type\":\"tool_result\",\"content\":\"B\"}]}}",
        "{\"type\":\"turn_ended\",\"status\":\"aborted\"}", ""));
    Path child = Files.createDirectories(t.resolve("subagents")).resolve("k1.jsonl");
    Files.writeString(child, "{\"role\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"go\"}]}}\n");
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      ImportReport r = h.importFrom(List.of(new Importer.Root(Provider.CURSOR, dir.resolve("projects"))),
          ImportListener.NONE);
      assertThat(r.filesSeen()).isEqualTo(2);
      SessionDetail d = h.detail("c1");
      assertThat(d.session().project()).isEqualTo("home-me-api");
      assertThat(d.session().title()).isEqualTo("Read both");
      List<DetailEntry.ToolCall> calls = d.entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
          .map(DetailEntry.ToolCall.class::cast).toList();
      assertThat(calls).extracting(c -> c.result().content()).containsExactly("A", "B");
      assertThat(calls).extracting(DetailEntry.ToolCall::filePath).containsExactly("a", "b");
      assertThat(h.detail("c1.k1").session().parentSessionId()).isEqualTo("c1");
    }
    assertThat(HistoryFolders.defaults(Provider.CURSOR, Map.of("HOME", "/h", "CURSOR_CONFIG_DIR", "/k")))
        .containsExactly(Path.of("/k/projects"));
  }

  @Test
  void theProviderIsDetectedFromTheFile() {
    Path root = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents");
    assertThat(Transcripts.detectProvider(root.resolve("gemini/small.json"))).isEqualTo(Provider.GEMINI);
    assertThat(Transcripts.detectProvider(root.resolve("gemini/jsonl_v040.jsonl"))).isEqualTo(Provider.GEMINI);
    assertThat(Transcripts.detectProvider(root.resolve("copilot/small.jsonl"))).isEqualTo(Provider.COPILOT);
    assertThat(Transcripts.detectProvider(root.resolve("cursor/small.jsonl"))).isEqualTo(Provider.CURSOR);
    assertThat(Transcripts.detectProvider(root.resolve("codex/small.jsonl"))).isEqualTo(Provider.CODEX);
    assertThat(Transcripts.detectProvider(root.resolve("claude/small.jsonl"))).isEqualTo(Provider.CLAUDE);
    assertThat(Transcripts.detectProvider(root.resolve("opencode/storage_v2/session/proj_test/ses_s_stage0_small.json")))
        .isEqualTo(Provider.OPENCODE);
  }
}
