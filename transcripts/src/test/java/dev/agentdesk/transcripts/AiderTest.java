package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.adapter.SourceUnit;
import dev.agentdesk.transcripts.assemble.DetailEntry;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aider's {@code .aider.chat.history.md}. There is no corpus file: the fixture below is constructed
 * here, line by line as aider's {@code InputOutput} writes them (aider/io.py: the started header,
 * {@code #### } user input joined with two-space line breaks, {@code > } tool output, the reply after
 * a blank line; aider/coders/base_coder.py: the {@code Tokens:} report; {@code get_announcements}:
 * {@code Aider v…}, {@code Main model: …}). It is not a copy of a real session.
 */
class AiderTest {
  /** Constructed, not recorded: two sessions of one project. */
  static final String HISTORY = String.join("\n",
      "",
      "# aider chat started at 2026-03-02 09:15:04",
      "",
      "> /usr/local/bin/aider --model sonnet  ",
      "> Aider v0.86.1  ",
      "> Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output  ",
      "> Weak model: anthropic/claude-3-5-haiku-20241022  ",
      "> Git repo: .git with 12 files  ",
      "> Repo-map: using 4096 tokens, auto refresh  ",
      "",
      "#### /add src/retry.py  ",
      "> Added src/retry.py to the chat  ",
      "",
      "#### Add exponential backoff to fetch()  ",
      "#### and keep the old signature  ",
      "",
      "I'll add a backoff loop.",
      "",
      "src/retry.py",
      "```python",
      "<<<<<<< SEARCH",
      "def fetch(url):",
      "=======",
      "def fetch(url, backoff=2.0):",
      ">>>>>>> REPLACE",
      "```",
      "",
      "> Tokens: 2.4k sent, 1.1k cache write, 180 received. Cost: $0.01 message, $0.01 session.  ",
      "> Applied edit to src/retry.py  ",
      "> Commit 1a2b3c4 feat: Add exponential backoff to fetch()  ",
      "",
      "#### Now run the tests  ",
      "",
      "Run them with:",
      "",
      "```bash",
      "pytest -q",
      "```",
      "",
      "> Tokens: 3.1k sent, 2.0k cache hit, 40 received. Cost: $0.0042 message, $0.02 session.  ",
      "> pytest -q  ",
      "> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
      "> Running pytest -q  ",
      "> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: n  ",
      ">  ",
      "> ^C again to exit  ",
      "",
      "#### <blank>  ",
      "",
      "# aider chat started at 2026-03-02 14:00:00",
      "",
      "> Aider v0.86.1  ",
      "> Main model: gpt-4o with diff edit format  ",
      "> mkdir -p build  ",
      "ls build  ",
      "> Run shell commands? (Y)es/(N)o [Yes]: n  ",
      "",
      "#### Explain the quoting rules  ",
      "",
      "Lines of tool output start with a quote mark:",
      "",
      "```text",
      "> not a tool line inside a fence",
      "#### nor a user line",
      "```",
      "",
      "> Tokens: 950 sent, 60 received.  ",
      "");

  private static Path project(Path dir) throws IOException {
    Path p = Files.createDirectories(dir.resolve("code/api"));
    Files.createDirectories(p.resolve(".git"));
    Path f = p.resolve(".aider.chat.history.md");
    Files.writeString(f, HISTORY);
    return f;
  }

  private static List<SourceUnit> units(Path root) throws IOException {
    return ProviderAdapter.of(Provider.AIDER).discover(root);
  }

  private static Transcripts.FreshParse fresh(SourceUnit u) {
    return Transcripts.parse(Provider.AIDER, Path.of(u.file() + "#" + u.sessionId()));
  }

  private static String startedAt(String local) {
    return LocalDateTime.parse(local).atZone(ZoneId.systemDefault()).toInstant().toString().replace("Z", ".000Z");
  }

  @Test
  void eachStartedHeaderIsASessionWithItsMessagesCardsCallsAndTokens(@TempDir Path dir) throws IOException {
    Path f = project(dir);
    List<SourceUnit> units = units(dir.resolve("code"));
    assertThat(units).hasSize(2);
    assertThat(units.get(0).sessionId()).matches("aider-[0-9a-f]{8}-20260302T091504");
    assertThat(Transcripts.detectProvider(f)).isEqualTo(Provider.AIDER);

    Transcripts.FreshParse p = fresh(units.get(0));
    assertThat(p.problems()).isEmpty();
    SessionDetail d = p.detail();
    assertThat(d.session().source()).isEqualTo("aider");
    assertThat(d.session().cwd()).isEqualTo(f.getParent().toString());
    assertThat(d.session().project()).isEqualTo("api");
    assertThat(d.session().version()).isEqualTo("0.86.1");
    assertThat(d.session().startedAt()).isEqualTo(startedAt("2026-03-02T09:15:04"));
    assertThat(d.session().title()).isEqualTo("Add exponential backoff to fetch() and keep the old signature");
    assertThat(d.session().messageCount()).isEqualTo(4);
    // sent = input + cache write (+ cache hit); rounded as aider prints them
    assertThat(d.session().usage()).isEqualTo(new TokenUsage(1300 + 1100, 220, 2000, 1100));

    List<DetailEntry> e = d.entries();
    assertThat(e).extracting(AiderTest::kind).containsExactly(
        "command_output", "command", "command_output", "text:user", "text:assistant", "edit", "command_output",
        "text:user", "text:assistant", "command_output", "shell", "command_output", "interrupt");
    assertThat(e.get(0)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).startsWith("/usr/local/bin/aider --model sonnet\nAider v0.86.1\nMain model:"));
    assertThat(e.get(1)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("/add src/retry.py"));
    assertThat(e.get(3)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).isEqualTo("Add exponential backoff to fetch()\nand keep the old signature"));
    assertThat(e.get(4)).isInstanceOfSatisfying(DetailEntry.Message.class, m -> {
      assertThat(m.text()).startsWith("I'll add a backoff loop.").endsWith(">>>>>>> REPLACE\n```");
      assertThat(m.model()).isEqualTo("anthropic/claude-sonnet-4-20250514");
    });
    assertThat(e.get(5)).isInstanceOfSatisfying(DetailEntry.ToolCall.class,
        c -> assertThat(c.filePath()).isEqualTo("src/retry.py"));
    assertThat(e.get(10)).isInstanceOfSatisfying(DetailEntry.ToolCall.class,
        c -> assertThat(c.inputJson()).isEqualTo("{\"command\":\"pytest -q\"}"));

    SessionDetail second = fresh(units.get(1)).detail();
    assertThat(second.session().usage()).isEqualTo(new TokenUsage(950, 60, 0, 0));
    assertThat(second.entries()).extracting(AiderTest::kind).containsExactly(
        "command_output", "text:user", "text:assistant");
    // a notice's second line without its '>' stays in the notice; a fence keeps quote and #### lines in the reply
    assertThat(second.entries().get(0)).isInstanceOfSatisfying(DetailEntry.Message.class,
        m -> assertThat(m.text()).contains("mkdir -p build\nls build"));
    assertThat(second.entries().get(2)).isInstanceOfSatisfying(DetailEntry.Message.class, m -> {
      assertThat(m.text()).contains("> not a tool line inside a fence\n#### nor a user line");
      assertThat(m.model()).isEqualTo("gpt-4o");
    });
    // a file of several sessions names one of them
    assertThatThrownBy(() -> Transcripts.parse(Provider.AIDER, f)).isInstanceOf(TranscriptException.class)
        .hasMessageContaining("holds 2 sessions").hasMessageContaining("#" + units.get(0).sessionId());
  }

  private static String kind(DetailEntry e) {
    if (e instanceof DetailEntry.Message m) {
      return ContentTypes.TEXT.equals(m.contentType()) ? "text:" + m.role() : m.contentType();
    }
    return e instanceof DetailEntry.ToolCall c ? c.presentation() : e.getClass().getSimpleName();
  }

  @Test
  void persistedEqualsFreshTwiceEqualsOnceAndTokensArePriced(@TempDir Path dir) throws IOException {
    project(dir);
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.AIDER, dir.resolve("code")));
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      ImportReport first = h.importFrom(roots, ImportListener.NONE);
      assertThat(first.problems()).isEmpty();
      assertThat(first.filesSeen()).isEqualTo(2);
      for (SourceUnit u : units(dir.resolve("code"))) {
        Transcripts.FreshParse p = fresh(u);
        String json = DetailJson.write(p.detail());
        assertThat(DetailJson.write(h.detail(u.sessionId()))).as("persisted %s", u.key()).isEqualTo(json);
        Invariants.checkDetail(p, json, u.key());
      }
      ImportReport again = h.importFrom(roots, ImportListener.NONE);
      assertThat(again.bytesRead()).isZero();
      assertThat(again.filesChanged()).isZero();
      assertThat(h.search("backoff", 10)).extracting(SearchHit::kind).contains("message");
      assertThat(h.sessions(new SessionQuery(Provider.AIDER, null, null, false, 10, 0)).total()).isEqualTo(2);
      UsageReport r = h.usageReport(UsageGrouping.MODEL, PriceTable.bundled(), null);
      assertThat(r.rows()).extracting(UsageRow::key).containsExactly("anthropic/claude-sonnet-4-20250514", "gpt-4o");
      assertThat(r.rows()).allSatisfy(row -> {
        assertThat(row.unpricedResponses()).isZero();
        assertThat(row.costUsd()).isPositive();
      });
    }
  }

  @Test
  void appendedInPiecesEqualsReadWhole(@TempDir Path dir) throws IOException {
    Path whole = project(dir.resolve("whole"));
    byte[] all = Files.readAllBytes(whole);
    for (int pieces : new int[] {2, 3, 7, 19, 64}) {
      Path copy = Files.createDirectories(dir.resolve("p" + pieces + "/code/api")).resolve(".aider.chat.history.md");
      Files.createFile(copy);
      try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("p" + pieces + "/h.db"))) {
        List<Importer.Root> roots = List.of(new Importer.Root(Provider.AIDER, copy));
        for (int i = 1; i <= pieces; i++) {
          int from = (int) ((long) all.length * (i - 1) / pieces);
          int to = (int) ((long) all.length * i / pieces);
          try (OutputStream out = Files.newOutputStream(copy, StandardOpenOption.APPEND)) {
            out.write(all, from, to - from);
          }
          assertThat(h.importFrom(roots, ImportListener.NONE).problems()).isEmpty();
        }
        List<SourceUnit> units = units(copy);
        assertThat(units).hasSize(2);
        for (SourceUnit u : units) {
          assertThat(DetailJson.write(h.detail(u.sessionId()))).as("%s in %d pieces", u.part(), pieces)
              .isEqualTo(DetailJson.write(fresh(u).detail()));
        }
      }
    }
  }

  @Test
  void corruptLinesAreProblemsAndTheirNeighboursStay(@TempDir Path dir) throws IOException {
    Path f = project(dir);
    byte[] text = HISTORY.replace("#### Now run the tests  \n", "#### Now run the tests  \n\0\u0001garbage\n")
        .getBytes(StandardCharsets.UTF_8);
    byte[] bad = "> caf\u00e9 menu  \n".getBytes(StandardCharsets.UTF_8);
    bad[6] = (byte) 0xC3;
    bad[7] = (byte) 0x28; // not a UTF-8 sequence
    try (OutputStream out = Files.newOutputStream(f)) {
      out.write(text);
      out.write(bad);
      out.write("> Applied edit to b.py  \n".getBytes(StandardCharsets.UTF_8));
    }
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      ImportReport r = h.importFrom(List.of(new Importer.Root(Provider.AIDER, f)), ImportListener.NONE);
      assertThat(r.problems()).extracting(LineProblem::reason).containsExactly(
          "corrupt line: contains a NUL byte at column 1 (not UTF-8 JSON text)", "corrupt line: not UTF-8 text");
      List<SourceUnit> units = units(f);
      SessionDetail first = h.detail(units.get(0).sessionId());
      assertThat(first.entries()).anySatisfy(x -> assertThat(x).isInstanceOfSatisfying(DetailEntry.Message.class,
          m -> assertThat(m.text()).isEqualTo("Now run the tests")));
      assertThat(first.session().messageCount()).isEqualTo(4);
      assertThat(h.detail(units.get(1).sessionId()).entries()).anySatisfy(x -> assertThat(x)
          .isInstanceOfSatisfying(DetailEntry.ToolCall.class, c -> assertThat(c.filePath()).isEqualTo("b.py")));
    }
  }

  @Test
  void aRewrittenOrShrunkFileIsReadAgainAndAHalfWrittenLineWaits(@TempDir Path dir) throws IOException {
    Path f = project(dir);
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.AIDER, f));
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(roots, ImportListener.NONE);
      String firstId = units(f).get(0).sessionId();
      // the user edits the first session's text (same size class, same header)
      Files.writeString(f, HISTORY.replace("exponential backoff", "jittered retries"));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(h.detail(firstId).session().title()).contains("jittered retries");
      assertThat(DetailJson.write(h.detail(firstId))).isEqualTo(DetailJson.write(fresh(units(f).get(0)).detail()));
      // cut back to the first session only, then a half-written line of a reply is appended
      String firstOnly = HISTORY.substring(0, HISTORY.indexOf("# aider chat started at 2026-03-02 14:00:00"));
      Files.writeString(f, firstOnly);
      h.importFrom(roots, ImportListener.NONE);
      Files.writeString(f, "#### One more  \n\nHalf a rep", StandardOpenOption.APPEND);
      ImportReport r = h.importFrom(roots, ImportListener.NONE);
      assertThat(r.problems()).isEmpty();
      assertThat(h.detail(firstId).entries()).noneMatch(x -> x instanceof DetailEntry.Message m
          && m.text() != null && m.text().startsWith("Half"));
      Files.writeString(f, "ly.\n", StandardOpenOption.APPEND);
      h.importFrom(roots, ImportListener.NONE);
      SessionDetail d = h.detail(firstId);
      assertThat(d.entries().get(d.entries().size() - 1)).isInstanceOfSatisfying(DetailEntry.Message.class,
          m -> assertThat(m.text()).isEqualTo("Half a reply."));
      assertThat(DetailJson.write(d)).isEqualTo(DetailJson.write(fresh(units(f).get(0)).detail()));
    }
  }

  @Test
  void projectsAreFoundInNamedFoldersToABoundedDepthAndThroughOtherSessionsWorkingFolders(@TempDir Path dir)
      throws IOException {
    Path f = project(dir);
    Path deep = Files.createDirectories(dir.resolve("code/a/b/c/d"));
    Files.writeString(deep.resolve(".aider.chat.history.md"), HISTORY);
    Path dependency = Files.createDirectories(dir.resolve("code/web/node_modules/lib"));
    Files.writeString(dependency.resolve(".aider.chat.history.md"), HISTORY);
    // code/api (depth 1) is found; code/a/b/c/d (depth 4) and node_modules are not
    assertThat(units(dir.resolve("code"))).extracting(SourceUnit::file).containsOnly(f);

    // a Claude session whose cwd is a folder inside the project brings the project's aider history along
    Path sub = Files.createDirectories(f.getParent().resolve("src"));
    Path claude = Files.createDirectories(dir.resolve("claude/-proj"));
    Files.writeString(claude.resolve("c1.jsonl"), "{\"type\":\"user\",\"uuid\":\"u1\",\"sessionId\":\"c1\","
        + "\"timestamp\":\"2026-03-02T08:00:00.000Z\",\"cwd\":\"" + sub + "\",\"message\":{\"role\":\"user\","
        + "\"content\":\"hi\"}}\n");
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      ImportReport r = h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("claude"))),
          ImportListener.NONE);
      assertThat(r.problems()).isEmpty();
      assertThat(h.sessions(new SessionQuery(Provider.AIDER, null, null, false, 10, 0)).total()).isEqualTo(2);
      assertThat(h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("claude"))), ImportListener.NONE)
          .bytesRead()).isZero();
    }
    assertThat(HistoryFolders.defaults(Provider.AIDER, Map.of("HOME", "/h"))).isEmpty();
    assertThat(HistoryFolders.defaults(Provider.AIDER, Map.of("HOME", "/h", "AIDER_CHAT_HISTORY_FILE", "/w/chat.md")))
        .containsExactly(Path.of("/w/chat.md"));
  }

  /**
   * A live agent session of aider links the session it started, not the file: the worktree's
   * history holds every start of aider there, and the whole file is no one session.
   */
  @Test
  void aJustLaunchedAiderIsLinkedToTheSessionItStartedInTheFile(@TempDir Path dir) throws IOException {
    Path file = project(dir);
    Path cwd = file.getParent();
    java.time.Instant launched = LocalDateTime.parse("2026-03-02T13:59:59").atZone(ZoneId.systemDefault()).toInstant();
    LiveTranscripts.Located l = LiveTranscripts.locate(Provider.AIDER,
        new LiveTranscripts.Launch(null, cwd, launched, java.util.Set.of()), Map.of("HOME", dir.toString())).orElseThrow();
    assertThat(l.sessionId()).endsWith("-20260302T140000");
    assertThat(l.file()).hasToString(file + "#" + l.sessionId());
    assertThat(Transcripts.parse(Provider.AIDER, l.file()).detail().session().usage())
        .isEqualTo(new TokenUsage(950, 60, 0, 0));
    assertThatThrownBy(() -> Transcripts.parse(Provider.AIDER, file)).hasMessageContaining("holds 2 sessions");

    // its header may be a second older than the launch (aider writes whole seconds), not more than the slack
    java.time.Instant justAfter = launched.plusMillis(2_500);
    assertThat(LiveTranscripts.locate(Provider.AIDER, new LiveTranscripts.Launch(null, cwd, justAfter, java.util.Set.of()),
        Map.of()).map(LiveTranscripts.Located::sessionId)).contains(l.sessionId());
    // a launch after every start, or the session already linked elsewhere: nothing yet
    assertThat(LiveTranscripts.locate(Provider.AIDER, new LiveTranscripts.Launch(null, cwd, launched.plusSeconds(60),
        java.util.Set.of()), Map.of())).isEmpty();
    assertThat(LiveTranscripts.locate(Provider.AIDER, new LiveTranscripts.Launch(null, cwd, launched,
        java.util.Set.of(l.sessionId())), Map.of())).isEmpty();
    assertThat(LiveTranscripts.locate(Provider.AIDER, new LiveTranscripts.Launch(null, dir, launched,
        java.util.Set.of()), Map.of())).as("no history file in that folder").isEmpty();
  }
}
