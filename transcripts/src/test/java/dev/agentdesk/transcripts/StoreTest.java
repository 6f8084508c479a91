package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.testkit.TempSqlite;
import dev.agentdesk.testkit.TempSqliteExtension;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The SQLite store: WAL, versioned migrations, one transaction per batch, full-text search. */
@ExtendWith(TempSqliteExtension.class)
class StoreTest {
  private static final String MAIN = "5f0c1a2e-0000-4000-8000-000000000001";

  private static long count(TempSqlite db, String sql) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void importFixtures(TranscriptHistory h) {
    h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeProject()),
        new Importer.Root(Provider.CODEX, Fixtures.codexDay())), ImportListener.NONE);
  }

  @Test
  void theDatabaseUsesWalAndRecordsItsSchemaVersion(TempSqlite db) throws SQLException {
    TranscriptStore.openSqlite(db.file()).close();
    TranscriptStore.openSqlite(db.file()).close(); // reopening applies nothing twice
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("wal");
      }
      try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(8192);
      }
    }
    assertThat(count(db, "SELECT COUNT(*) FROM schema_migrations")).isEqualTo(9);
    assertThat(count(db, "SELECT MAX(version) FROM schema_migrations")).isEqualTo(9);
  }

  @Test
  void aDatabaseFromANewerVersionIsRefused(TempSqlite db) throws SQLException {
    TranscriptStore.openSqlite(db.file()).close();
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (10, 'later')");
    }
    assertThatThrownBy(() -> TranscriptStore.openSqlite(db.file())).isInstanceOfSatisfying(TranscriptException.class,
        e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.SCHEMA_TOO_NEW))
        .hasMessageContaining("schema version 10");
  }

  @Test
  void anotherDatabaseEngineIsATypedError() {
    assertThatThrownBy(() -> TranscriptHistory.openUrl("jdbc:mysql://localhost/x"))
        .isInstanceOfSatisfying(TranscriptException.class,
            e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.UNSUPPORTED_DATABASE));
  }

  @Test
  void aFailedBatchLeavesNeitherRecordsNorCursor(TempSqlite db) throws SQLException {
    TranscriptStore.openSqlite(db.file()).close();
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      // make the batch fail after its messages were written
      s.execute("CREATE TRIGGER refuse AFTER INSERT ON tool_calls WHEN new.id = 'toolu_task'"
          + " BEGIN SELECT RAISE(ABORT, 'refused by test'); END");
    }
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      assertThatThrownBy(() -> h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeMain())),
          ImportListener.NONE)).isInstanceOfSatisfying(TranscriptException.class,
              e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
          .hasMessageContaining("refused by test");
    }
    assertThat(count(db, "SELECT COUNT(*) FROM messages")).isZero();
    assertThat(count(db, "SELECT COUNT(*) FROM sessions")).isZero();
    assertThat(count(db, "SELECT COUNT(*) FROM cursors")).isZero();
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("DROP TRIGGER refuse");
    }
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeMain())), ImportListener.NONE);
      assertThat(h.detail(MAIN).entries()).isNotEmpty();
    }
  }

  @Test
  void searchRanksVisibleTextToolInputsAndOutputsWithSnippets(TempSqlite db) {
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      importFixtures(h);
      assertThat(h.search("backoff configurable", 10)).first().satisfies(hit -> {
        assertThat(hit.sessionId()).isEqualTo(MAIN);
        assertThat(hit.kind()).isEqualTo("message");
        assertThat(hit.ref()).isEqualTo("u9");
        assertThat(hit.snippet()).contains("[backoff]").contains("[configurable]");
        assertThat(hit.sessionTitle()).isEqualTo("Retry for fetch()");
      });
      assertThat(h.search("go test limiter", 10)).extracting(SearchHit::kind).contains("tool_input");
      assertThat(h.search("TestRefill", 10)).extracting(SearchHit::kind).contains("tool_output");
      // hidden envelope text is not searchable
      assertThat(h.search("opened settings.py", 10)).isEmpty();
      assertThat(h.search("environment_context zsh", 10)).isEmpty();
      // punctuation is not query syntax
      assertThat(h.search("(fetch*) \"retry\" -", 10)).isNotEmpty();
    }
  }

  @Test
  void sessionsFilterAndPage(TempSqlite db) {
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      importFixtures(h);
      Page<SessionSummary> all = h.sessions(SessionQuery.all(50));
      assertThat(all.total()).isEqualTo(5);
      assertThat(all.items()).extracting(SessionSummary::endedAt).isSortedAccordingTo(
          java.util.Comparator.reverseOrder());
      assertThat(h.sessions(new SessionQuery(Provider.CODEX, null, null, false, 50, 0)).total()).isEqualTo(2);
      assertThat(h.sessions(new SessionQuery(null, null, null, true, 50, 0)).total()).isEqualTo(6);
      Page<SessionSummary> second = h.sessions(new SessionQuery(null, null, null, false, 2, 2));
      assertThat(second.items()).hasSize(2).first().isEqualTo(all.items().get(2));
      assertThat(h.sessions(new SessionQuery(null, "api-fork", null, false, 50, 0)).items())
          .singleElement().satisfies(s -> assertThat(s.id()).isEqualTo("019b92bf-c500-7000-8000-000000000002"));
    }
  }

  @Test
  void usageCountsEveryResponseOnceAcrossForksAndSplitLines(TempSqlite db) {
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      importFixtures(h);
      List<UsageRow> byModel = h.usage(UsageGrouping.MODEL);
      UsageRow sonnet = byModel.stream().filter(r -> r.key().equals("claude-sonnet-4-5")).findFirst().orElseThrow();
      // msg_A (split over three lines, copied into the fork), msg_B, msg_C: three responses
      assertThat(sonnet.responses()).isEqualTo(3);
      assertThat(sonnet.usage().output()).isEqualTo(57 + 20 + 30);
      assertThat(h.usage(UsageGrouping.DAY)).extracting(UsageRow::key).containsExactly("2026-01-05", "2026-01-06");
    }
  }

  /** Thirty sessions of project "loud" that say zebra a lot, and one of project "quiet" that says it once. */
  static Path zebraProjects(Path dir) throws java.io.IOException {
    Path projects = dir.resolve("projects");
    for (int i = 0; i < 31; i++) {
      boolean quiet = i == 30;
      Path p = java.nio.file.Files.createDirectories(projects.resolve(quiet ? "-w-quiet" : "-w-loud"));
      String id = String.format("2ebaa000-0000-4000-8000-%012d", i);
      String text = quiet ? "one zebra among many other words of a long message about something else entirely"
          : "zebra zebra zebra";
      java.nio.file.Files.writeString(p.resolve(id + ".jsonl"), "{\"type\":\"user\",\"uuid\":\"u1\","
          + "\"timestamp\":\"2026-03-01T10:00:00.000Z\",\"cwd\":\"/w/" + (quiet ? "quiet" : "loud") + "\","
          + "\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n");
    }
    return projects;
  }

  @Test
  void searchFiltersApplyBeforeTheLimit(TempSqlite db, @org.junit.jupiter.api.io.TempDir Path dir)
      throws java.io.IOException {
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      importFixtures(h);
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, zebraProjects(dir))), ImportListener.NONE);
      // unfiltered, the quiet session ranks below the limit
      assertThat(h.search("zebra", 5)).hasSize(5).allSatisfy(hit -> assertThat(hit.sessionId()).doesNotEndWith("30"));
      String quiet = "2ebaa000-0000-4000-8000-000000000030";
      assertThat(h.search("zebra", new SearchFilter(null, "quiet", null), 5)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).isEqualTo(quiet));
      assertThat(h.search("zebra", new SearchFilter(null, null, quiet), 5)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).isEqualTo(quiet));
      assertThat(h.search("zebra", new SearchFilter(Provider.CLAUDE, "loud", null), 20)).hasSize(20);
      assertThat(h.search("zebra", new SearchFilter(Provider.CODEX, null, null), 5)).isEmpty();
      // the codex fixture mentions the limiter; claude sessions that also do are filtered out before the limit
      assertThat(h.search("limiter", new SearchFilter(Provider.CODEX, null, null), 1)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).startsWith("019b"));
    }
  }

  @Test
  void aHitInASessionWithNeitherTitleNorFirstPromptIsFoundWithoutATitle(TempSqlite db,
      @org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
    // A session of assistant lines only (a resumed or tool-only file), as in the peer corpus.
    Path projects = dir.resolve("projects");
    String id = "7171e000-0000-4000-8000-000000000001";
    java.nio.file.Files.writeString(java.nio.file.Files.createDirectories(projects.resolve("-w")).resolve(id + ".jsonl"),
        "{\"type\":\"assistant\",\"uuid\":\"a1\",\"timestamp\":\"2026-02-01T08:00:00Z\",\"sessionId\":\"" + id
            + "\",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"the TodoItem record keeps its order\"}]}}\n");
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      importFixtures(h);
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, projects)), ImportListener.NONE);
      assertThat(h.search("TodoItem", 10)).singleElement().satisfies(hit -> {
        assertThat(hit.sessionId()).isEqualTo(id);
        assertThat(hit.sessionTitle()).isNull();
      });
    }
  }

  @Test
  void reimportingARewrittenFileReplacesItsSearchableText(TempSqlite db, @org.junit.jupiter.api.io.TempDir Path dir)
      throws java.io.IOException, SQLException {
    Path projects = dir.resolve("projects");
    Path f = java.nio.file.Files.createDirectories(projects.resolve("-w")).resolve("2ebaa000-0000-4000-8000-0000000000ff.jsonl");
    String line = "{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":\"2026-03-01T10:00:00.000Z\",\"cwd\":\"/w\","
        + "\"message\":{\"role\":\"user\",\"content\":\"%s\"}}\n";
    java.nio.file.Files.writeString(f, String.format(line, "aardvark"));
    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, projects));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(h.search("aardvark", 5)).hasSize(1);
      // same uuid, new text, file rewritten from the start
      java.nio.file.Files.writeString(f, String.format(line, "pangolin") + String.format(line.replace("u1", "u2"),
          "aardvark again"));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(h.search("pangolin", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u1"));
      assertThat(h.search("aardvark", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u2"));
    }
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)");
    }
  }
}
