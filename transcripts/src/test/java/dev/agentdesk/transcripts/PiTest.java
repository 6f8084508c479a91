package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pi coding agent's session files: the shared corpus (the invariants of its clean file are checked
 * in ProviderCorpusTest) and one test
 * per format fact on files written here the way pi's session manager writes them (pi-mono's
 * {@code docs/session.md} and {@code session-manager.ts}).
 */
class PiTest {
  private static final String SESSION = "019e19b4-eb48-746a-aa6b-8dfcfa37954b";
  private static final String HEADER = "{\"type\":\"session\",\"version\":3,\"id\":\"" + SESSION + "\","
      + "\"timestamp\":\"2026-05-12T01:00:00.000Z\",\"cwd\":\"/home/me/work/api\"}\n";

  private static String entry(String type, String id, String parent, String time, String body) {
    return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\",\"parentId\":" + (parent == null ? "null" : "\"" + parent + "\"")
        + ",\"timestamp\":\"2026-05-12T01:" + time + ".000Z\"" + (body.isEmpty() ? "" : "," + body) + "}\n";
  }

  private static String user(String id, String parent, String time, String text) {
    return entry("message", id, parent, time, "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\""
        + text + "\"}],\"timestamp\":1778547600000}");
  }

  private static String assistant(String id, String parent, String time, String blocks, int in, int out, int cached,
      String stop) {
    return entry("message", id, parent, time, "\"message\":{\"role\":\"assistant\",\"content\":[" + blocks + "],"
        + "\"api\":\"anthropic-messages\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input\":"
        + in + ",\"output\":" + out + ",\"cacheRead\":" + cached + ",\"cacheWrite\":0,\"totalTokens\":" + (in + out + cached)
        + ",\"cost\":{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0.01}},\"stopReason\":\"" + stop
        + "\",\"timestamp\":1778547600000}");
  }

  private static String text(String t) {
    return "{\"type\":\"text\",\"text\":\"" + t + "\"}";
  }

  private static Path sessionFile(Path dir, String... lines) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("sessions/--home-me-work-api--"));
    Path f = folder.resolve("2026-05-12T01-00-00-000Z_" + SESSION + ".jsonl");
    Files.writeString(f, HEADER + String.join("", lines));
    return f;
  }

  @Test
  void theCorpusSessionHasItsMessagesUsageAndCompactions() {
    Path small = SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/pi/small.jsonl");
    Transcripts.FreshParse p = Transcripts.parse(Provider.PI, small);
    assertThat(p.problems()).isEmpty(); // and every invariant: ProviderCorpusTest
    SessionDetail d = p.detail();
    assertThat(d.session().cwd()).isEqualTo("/tmp/as-agent-fixture/project");
    assertThat(d.session().messageCount()).isEqualTo(4);
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(24, 14, 0, 0));
    // each compaction is a visible meta card with pi's summary
    assertThat(d.entries()).filteredOn(e -> e instanceof DetailEntry.Message m
        && ContentTypes.COMPACT_SUMMARY.equals(m.contentType())).hasSize(2);
    assertThat(Transcripts.detectProvider(small)).isEqualTo(Provider.PI);
  }

  @Test
  void aLineThatIsNotJsonIsOneProblemAndItsNeighboursStay(@TempDir Path work) throws IOException {
    // agentsview's fixture: a session forked with the format-2 header field branchedFrom, a malformed
    // line and an entry type of a later release after it.
    Path f = SharedCorpus.require("corpus/transcripts/agentsview/pi/session.jsonl");
    Transcripts.FreshParse p = Transcripts.parse(Provider.PI, f);
    assertThat(p.problems()).singleElement().satisfies(pr -> {
      assertThat(pr.line()).isEqualTo(10);
      assertThat(pr.reason()).startsWith("invalid JSON");
    });
    Invariants.check(Provider.PI, f, work);
    SessionDetail d = p.detail();
    assertThat(d.session().title()).isEqualTo("Fix the login bug");
    assertThat(d.session().messageCount()).isEqualTo(4);
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(300, 60, 0, 0));
    DetailEntry.ToolCall read = d.entries().stream().filter(DetailEntry.ToolCall.class::isInstance)
        .map(DetailEntry.ToolCall.class::cast).findFirst().orElseThrow();
    assertThat(read.presentation()).isEqualTo("read");
    assertThat(read.filePath()).isEqualTo("auth.go");
    assertThat(read.result().content()).contains("func Login()");
    // the readable thinking block is shown, the redacted one is an unreadable thinking entry
    assertThat(d.entries()).filteredOn(DetailEntry.Thinking.class::isInstance).extracting(e -> ((DetailEntry.Thinking) e).text())
        .containsExactly("Let me analyze this carefully.", null);
  }

  @Test
  void aBranchShowsWhereTheConversationGoesBackAndEveryResponseCountsOnce(@TempDir Path dir) throws IOException {
    Path f = sessionFile(dir,
        entry("model_change", "m0", null, "00:01", "\"provider\":\"anthropic\",\"modelId\":\"claude-sonnet-4-5\""),
        user("u1", "m0", "00:02", "Add a retry"),
        assistant("a1", "u1", "00:03", text("Plan A.") + ",{\"type\":\"toolCall\",\"id\":\"c1\",\"name\":\"bash\","
            + "\"arguments\":{\"command\":\"ls\"}}", 1000, 50, 4000, "toolUse"),
        entry("message", "r1", "a1", "00:04", "\"message\":{\"role\":\"toolResult\",\"toolCallId\":\"c1\",\"toolName\":"
            + "\"bash\",\"content\":[{\"type\":\"text\",\"text\":\"a.txt\"}],\"isError\":false,\"timestamp\":1}"),
        // /tree back to u1 with a summary of the branch left behind, then a new answer
        entry("branch_summary", "b1", "u1", "00:05", "\"fromId\":\"r1\",\"summary\":\"Tried plan A with ls.\""),
        assistant("a2", "b1", "00:06", text("Plan B."), 1200, 30, 4000, "stop"),
        // /tree back to the start without a summary
        user("u2", null, "00:07", "Start over"),
        entry("session_info", "n1", "u2", "00:08", "\"name\":\"Retry work\""),
        entry("label", "l1", "n1", "00:09", "\"targetId\":\"u1\",\"label\":\"checkpoint\""));
    Transcripts.FreshParse p = Transcripts.parse(Provider.PI, f);
    assertThat(p.problems()).isEmpty();
    SessionDetail d = p.detail();
    assertThat(d.session().id()).isEqualTo(SESSION);
    assertThat(d.session().title()).isEqualTo("Retry work");
    assertThat(d.session().project()).isEqualTo("api");
    assertThat(d.session().messageCount()).isEqualTo(4);
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(2200, 80, 8000, 0));
    List<DetailEntry> e = d.entries();
    assertThat(e).hasSize(7);
    assertThat(e.get(2)).isInstanceOfSatisfying(DetailEntry.ToolCall.class, c -> {
      assertThat(c.presentation()).isEqualTo("shell");
      assertThat(c.result().content()).isEqualTo("a.txt");
    });
    assertThat(e.get(3)).isInstanceOfSatisfying(DetailEntry.Summary.class, s -> {
      assertThat(s.text()).isEqualTo("Tried plan A with ls.");
      assertThat(s.leafUuid()).isEqualTo("r1");
    });
    assertThat(e.get(5)).isInstanceOfSatisfying(DetailEntry.Message.class, m -> {
      assertThat(m.contentType()).isEqualTo(ContentTypes.BRANCH);
      assertThat(m.isMeta()).isTrue();
      assertThat(m.text()).contains("starts again from the beginning");
    });
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.PI, dir.resolve("sessions"))), ImportListener.NONE);
      assertThat(DetailJson.write(h.detail(SESSION))).isEqualTo(DetailJson.write(d));
      assertThat(h.search("plan", 10)).extracting(SearchHit::ref).contains("a1", "a2");
      UsageReport r = h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null);
      assertThat(r.rows()).singleElement().satisfies(row -> {
        assertThat(row.key()).isEqualTo("claude-sonnet-4-5");
        assertThat(row.unpricedResponses()).isZero();
        assertThat(row.costUsd()).isPositive();
      });
    }
  }

  @Test
  void aForkSkipsTheEntriesItCopiedFromItsParent(@TempDir Path dir) throws IOException {
    String parent = "/home/me/.pi/agent/sessions/--home-me-work-api--/2026-05-12T00-00-00-000Z_p.jsonl";
    Path f = Files.createDirectories(dir.resolve("sessions/x")).resolve("2026-05-12T01-00-00-000Z_fork1.jsonl");
    Files.writeString(f, HEADER.replace("\"cwd\"", "\"parentSession\":\"" + parent + "\",\"cwd\"")
        .replace("01:00:00.000Z", "01:10:00.000Z")
        + user("u1", null, "00:02", "Old question")
        + assistant("a1", "u1", "00:03", text("Old answer."), 1000, 50, 0, "stop")
        + user("u2", "a1", "10:02", "New question")
        + assistant("a2", "u2", "10:03", text("New answer."), 10, 5, 0, "stop"));
    SessionDetail d = Transcripts.parse(Provider.PI, f).detail();
    assertThat(d.session().id()).isEqualTo("fork1");
    assertThat(d.session().messageCount()).isEqualTo(2);
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(10, 5, 0, 0));
    // no branch card: the first own entry continues the copied path
    assertThat(d.entries()).extracting(x -> ((DetailEntry.Message) x).text()).containsExactly("New question", "New answer.");
  }

  @Test
  void userShellCommandsErrorsAbortsAndExtensionMessagesAreMetaOrHidden(@TempDir Path dir) throws IOException {
    Path f = sessionFile(dir,
        user("u1", null, "00:01", "Check it"),
        entry("message", "x1", "u1", "00:02", "\"message\":{\"role\":\"bashExecution\",\"command\":\"make test\","
            + "\"output\":\"FAIL\\n\",\"exitCode\":2,\"cancelled\":false,\"truncated\":false,\"timestamp\":1}"),
        entry("custom_message", "k1", "x1", "00:03", "\"customType\":\"memory\",\"content\":\"secret context\","
            + "\"display\":false"),
        entry("custom_message", "k2", "k1", "00:04", "\"customType\":\"todo\",\"content\":\"3 todos open\","
            + "\"display\":true"),
        assistant("a1", "k2", "00:05", "", 5, 0, 0, "aborted"),
        assistant("a2", "a1", "00:06", "", 5, 0, 0, "error").replace("\"stopReason\"",
            "\"errorMessage\":\"overloaded\",\"stopReason\""));
    Transcripts.FreshParse p = Transcripts.parse(Provider.PI, f);
    SessionDetail d = p.detail();
    String json = DetailJson.write(d);
    assertThat(json).doesNotContain("secret context");
    assertThat(d.entries()).extracting(x -> ((DetailEntry.Message) x).contentType()).containsExactly(
        ContentTypes.TEXT, ContentTypes.COMMAND, ContentTypes.COMMAND_OUTPUT, ContentTypes.TEXT, ContentTypes.INTERRUPT,
        ContentTypes.ERROR);
    assertThat(d.entries().get(1)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("!make test"));
    assertThat(d.entries().get(2)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("FAIL\n[exit code 2]"));
    assertThat(d.entries().get(5)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("overloaded"));
    assertThat(d.session().messageCount()).isEqualTo(1);
    // the two failed requests still cost their input tokens
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(10, 0, 0, 0));
  }

  @Test
  void theLinearFormatOneWithoutIdsAndStringContentIsRead(@TempDir Path dir) throws IOException {
    Path f = sessionFile(dir);
    Files.writeString(f, "{\"type\":\"session\",\"id\":\"v1\",\"timestamp\":\"2025-11-01T10:00:00.000Z\",\"cwd\":\"/w/old\"}\n"
        + "{\"type\":\"message\",\"timestamp\":\"2025-11-01T10:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\","
        + "\"timestamp\":1}}\n"
        + "{\"type\":\"message\",\"timestamp\":\"2025-11-01T10:00:02.000Z\",\"message\":{\"role\":\"assistant\",\"content\":"
        + "[{\"type\":\"text\",\"text\":\"hello\"}],\"model\":\"gpt-4o\",\"usage\":{\"input\":3,\"output\":2,\"cacheRead\":0,"
        + "\"cacheWrite\":0},\"stopReason\":\"stop\",\"timestamp\":2}}\n"
        + "{\"type\":\"compaction\",\"timestamp\":\"2025-11-01T10:00:03.000Z\",\"summary\":\"Greeted.\","
        + "\"firstKeptEntryIndex\":1,\"tokensBefore\":5}\n");
    SessionDetail d = Transcripts.parse(Provider.PI, f).detail();
    assertThat(d.entries()).extracting(x -> ((DetailEntry.Message) x).text()).containsExactly("hi", "hello", "Greeted.");
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(3, 2, 0, 0));
    assertThat(d.session().cwd()).isEqualTo("/w/old");
  }

  @Test
  void appendedEntriesAreReadByCursorAndCorruptOrHalfWrittenLinesAreProblemsOrWait(@TempDir Path dir)
      throws IOException {
    Path f = sessionFile(dir, user("u1", null, "00:01", "One"));
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.PI, dir.resolve("sessions")));
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(roots, ImportListener.NONE);
      String half = assistant("a1", "u1", "00:02", text("Two."), 1, 1, 0, "stop");
      Files.writeString(f, half.substring(0, 40), StandardOpenOption.APPEND);
      ImportReport mid = h.importFrom(roots, ImportListener.NONE);
      assertThat(mid.problems()).isEmpty();
      assertThat(h.detail(SESSION).entries()).hasSize(1);
      Files.writeString(f, half.substring(40), StandardOpenOption.APPEND);
      Files.write(f, "{\"type\":\"message\",\"id\":\"z\0\"}\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
      Files.writeString(f, user("u3", "a1", "00:04", "Three"), StandardOpenOption.APPEND);
      ImportReport end = h.importFrom(roots, ImportListener.NONE);
      assertThat(end.problems()).singleElement().satisfies(pr -> {
        assertThat(pr.line()).isEqualTo(4);
        assertThat(pr.reason()).startsWith("corrupt line: contains a NUL byte");
      });
      SessionDetail d = h.detail(SESSION);
      assertThat(d.entries()).extracting(x -> ((DetailEntry.Message) x).text()).containsExactly("One", "Two.", "Three");
      assertThat(DetailJson.write(d)).isEqualTo(DetailJson.write(Transcripts.parse(Provider.PI, f).detail()));
      assertThat(h.importFrom(roots, ImportListener.NONE).bytesRead()).isZero();
    }
  }

  @Test
  void theDefaultFoldersFollowPisOwnVariablesAndSettings(@TempDir Path home) throws IOException {
    assertThat(HistoryFolders.defaults(Provider.PI, Map.of("HOME", "/h"))).containsExactly(Path.of("/h/.pi/agent/sessions"));
    assertThat(HistoryFolders.defaults(Provider.PI, Map.of("HOME", "/h", "PI_CODING_AGENT_DIR", "~/pi")))
        .containsExactly(Path.of("/h/pi/sessions"));
    assertThat(HistoryFolders.defaults(Provider.PI, Map.of("HOME", "/h", "PI_CODING_AGENT_SESSION_DIR", "/s",
        "PI_CODING_AGENT_DIR", "/a"))).containsExactly(Path.of("/s"), Path.of("/a/sessions"));
    Path agent = Files.createDirectories(home.resolve(".pi/agent"));
    Files.writeString(agent.resolve("settings.json"), "{\"sessionDir\":\"~/pi-sessions\"}");
    assertThat(HistoryFolders.defaults(Provider.PI, Map.of("HOME", home.toString())))
        .containsExactly(home.resolve("pi-sessions"), agent.resolve("sessions"));
    Files.writeString(agent.resolve("settings.json"), "{not json");
    assertThat(HistoryFolders.defaults(Provider.PI, Map.of("HOME", home.toString())))
        .containsExactly(agent.resolve("sessions"));
  }
}
