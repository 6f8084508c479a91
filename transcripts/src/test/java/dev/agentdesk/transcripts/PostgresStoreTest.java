package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.testkit.TempSqlite;
import dev.agentdesk.testkit.TempSqliteExtension;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL store against a real server: the same details, search rows, usage and import
 * semantics as SQLite; writers of one database take turns while readers go on.
 */
@ExtendWith({PostgresExtension.class, TempSqliteExtension.class})
class PostgresStoreTest {
  private static final String MAIN = "5f0c1a2e-0000-4000-8000-000000000001";
  /** Every fixture transcript with its provider: each is one session. */
  private static final List<Importer.Root> FIXTURE_FILES = List.of(
      new Importer.Root(Provider.CLAUDE, Fixtures.claudeMain()), new Importer.Root(Provider.CLAUDE, Fixtures.claudeFork()),
      new Importer.Root(Provider.CLAUDE, Fixtures.claudeLive()),
      new Importer.Root(Provider.CLAUDE, Fixtures.claudeSubagent()),
      new Importer.Root(Provider.CODEX, Fixtures.codexParent()), new Importer.Root(Provider.CODEX, Fixtures.codexFork()));

  private static List<Importer.Root> fixtureRoots() {
    return List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeProject()),
        new Importer.Root(Provider.CODEX, Fixtures.codexDay()));
  }

  private static long count(String url, String sql) throws SQLException {
    try (Connection c = PostgresServer.connect(url); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = PostgresServer.connect(url); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** A claude transcript of one user message per text, in {@code projects/<project>/<id>.jsonl}. */
  private static Path claudeFile(Path projects, String project, String id, List<String> texts) throws IOException {
    Path p = Files.createDirectories(projects.resolve(project)).resolve(id + ".jsonl");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < texts.size(); i++) {
      sb.append("{\"type\":\"user\",\"uuid\":\"u").append(i).append("\",\"timestamp\":\"2026-03-01T10:00:")
          .append(String.format("%02d", i % 60)).append(".000Z\",\"cwd\":\"/w/").append(project)
          .append("\",\"message\":{\"role\":\"user\",\"content\":\"").append(texts.get(i)).append("\"}}\n");
    }
    Files.writeString(p, sb.toString());
    return p;
  }

  @Test
  void theSchemaIsCreatedOnceAndAnotherEngineIsStillRefused(PostgresServer pg) throws SQLException {
    String url = pg.createDatabase();
    TranscriptHistory.openUrl(url).close();
    TranscriptHistory.openUrl(url).close(); // reopening applies nothing twice
    assertThat(count(url, "SELECT COUNT(*) FROM schema_migrations")).isEqualTo(7);
    assertThat(count(url, "SELECT COUNT(*) FROM information_schema.columns WHERE column_name = 'rowid'"
        + " AND data_type = 'bigint' AND table_name IN ('messages', 'tool_calls', 'tool_results')")).isEqualTo(3);
    assertThatThrownBy(() -> TranscriptHistory.openUrl("jdbc:mysql://localhost/x?password=s3cret"))
        .isInstanceOfSatisfying(TranscriptException.class,
            e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.UNSUPPORTED_DATABASE))
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void everyDetailListAndUsageEqualsSqliteAndTheFreshParse(PostgresServer pg, TempSqlite db) {
    try (TranscriptHistory p = TranscriptHistory.openUrl(pg.createDatabase());
        TranscriptHistory s = TranscriptHistory.open(db.file())) {
      ImportReport first = p.importFrom(fixtureRoots(), ImportListener.NONE);
      s.importFrom(fixtureRoots(), ImportListener.NONE);
      assertThat(first.records()).isPositive();
      for (Importer.Root f : FIXTURE_FILES) {
        Transcripts.FreshParse fresh = Transcripts.parse(f.provider(), f.path());
        String id = fresh.unit().sessionId();
        String json = DetailJson.write(p.detail(id));
        assertThat(json).as("detail of %s", id).isEqualTo(DetailJson.write(fresh.detail()))
            .isEqualTo(DetailJson.write(s.detail(id)));
      }
      SessionQuery all = new SessionQuery(null, null, null, true, 50, 0);
      assertThat(p.sessions(all)).isEqualTo(s.sessions(all));
      assertThat(p.sessions(all).total()).isEqualTo(FIXTURE_FILES.size());
      SessionQuery codex = new SessionQuery(Provider.CODEX, null, null, false, 1, 1);
      assertThat(p.sessions(codex)).isEqualTo(s.sessions(codex));
      for (UsageGrouping by : UsageGrouping.values()) {
        assertThat(p.usage(by)).as("usage by %s", by).isEqualTo(s.usage(by)).isNotEmpty();
      }
      assertThat(p.problems(50)).isEqualTo(s.problems(50));
      // a prefix resolves (LIKE with an escaped pattern), an ambiguous one names the candidates in the same order
      assertThat(p.resolveSessionId("019b9288")).isEqualTo(s.resolveSessionId("019b9288"))
          .isEqualTo("019b9288-d680-7000-8000-000000000001");
      assertThatThrownBy(() -> p.resolveSessionId("5f0c1a2e-0000-4000-8000-00000000000"))
          .hasMessage(catchMessage(() -> s.resolveSessionId("5f0c1a2e-0000-4000-8000-00000000000")));

      // importing again reads nothing and changes nothing
      assertThat(p.importFrom(fixtureRoots(), ImportListener.NONE).bytesRead()).isZero();
      assertThat(DetailJson.write(p.detail(MAIN))).isEqualTo(DetailJson.write(s.detail(MAIN)));
    }
  }

  private static String catchMessage(Runnable r) {
    try {
      r.run();
    } catch (TranscriptException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected a TranscriptException");
  }

  /** Fresh == persisted, twice == once, appended pieces == whole and usage, for every fixture file. */
  @Test
  void theCorpusInvariantsHoldForEveryFixture(PostgresServer pg, @TempDir Path work) throws IOException {
    for (Importer.Root f : FIXTURE_FILES) {
      Path dir = Files.createDirectories(work.resolve(f.path().getFileName().toString()));
      Invariants.check(f.provider(), f.path(), dir, sqliteFile -> TranscriptHistory.openUrl(pg.createSchema()));
    }
  }

  private static Set<List<String>> rows(List<SearchHit> hits) {
    Set<List<String>> out = new HashSet<>();
    hits.forEach(h -> out.add(List.of(h.sessionId(), h.kind(), h.ref())));
    return out;
  }

  @Test
  void searchFindsTheSameRowsAsSqliteAndFiltersBeforeTheLimit(PostgresServer pg, TempSqlite db, @TempDir Path dir)
      throws IOException {
    Path zebras = StoreTest.zebraProjects(dir);
    try (TranscriptHistory p = TranscriptHistory.openUrl(pg.createDatabase());
        TranscriptHistory s = TranscriptHistory.open(db.file())) {
      for (TranscriptHistory h : List.of(p, s)) {
        h.importFrom(fixtureRoots(), ImportListener.NONE);
        h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, zebras)), ImportListener.NONE);
      }
      for (String q : List.of("backoff configurable", "go test limiter", "TestRefill", "limiter", "fetch", "retry",
          "zebra", "(fetch*) \"retry\" -", "settings", "opened settings.py", "environment_context zsh", "api go")) {
        assertThat(rows(p.search(q, 100))).as("rows for '%s'", q).isEqualTo(rows(s.search(q, 100)));
      }
      assertThat(p.search("limiter", 100)).hasSizeGreaterThan(1);
      assertThat(p.search("opened settings.py", 10)).isEmpty(); // hidden envelope text is not indexed
      assertThat(p.search("backoff configurable", 10)).first().satisfies(hit -> {
        assertThat(hit.sessionId()).isEqualTo(MAIN);
        assertThat(hit.ref()).isEqualTo("u9");
        assertThat(hit.snippet()).contains("[backoff]").contains("[configurable]");
        assertThat(hit.sessionTitle()).isEqualTo("Retry for fetch()");
      });
      // case and diacritics fold as in SQLite's index
      assertThat(rows(p.search("BACKOFF cönfigurable", 10))).isEqualTo(rows(s.search("BACKOFF cönfigurable", 10)))
          .isNotEmpty();

      // the quiet session ranks below the limit unfiltered; filters apply before the limit
      String quiet = "2ebaa000-0000-4000-8000-000000000030";
      assertThat(p.search("zebra", 5)).hasSize(5).allSatisfy(hit -> assertThat(hit.sessionId()).isNotEqualTo(quiet));
      assertThat(p.search("zebra", new SearchFilter(null, "quiet", null), 5)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).isEqualTo(quiet));
      assertThat(p.search("zebra", new SearchFilter(null, null, quiet), 5)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).isEqualTo(quiet));
      assertThat(p.search("zebra", new SearchFilter(Provider.CLAUDE, "loud", null), 20)).hasSize(20);
      assertThat(p.search("zebra", new SearchFilter(Provider.CODEX, null, null), 5)).isEmpty();
      assertThat(p.search("limiter", new SearchFilter(Provider.CODEX, null, null), 1)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).startsWith("019b"));
      assertThat(rows(p.search("limiter", new SearchFilter(Provider.CODEX, null, null), 100)))
          .isEqualTo(rows(s.search("limiter", new SearchFilter(Provider.CODEX, null, null), 100)));
    }
  }

  @Test
  void aRewrittenOrTruncatedFileRestartsCleanly(PostgresServer pg, @TempDir Path dir) throws IOException {
    Path projects = dir.resolve("projects");
    Path f = claudeFile(projects, "-w", "2ebaa000-0000-4000-8000-0000000000ff", List.of("aardvark", "second"));
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, projects));
    try (TranscriptHistory h = TranscriptHistory.openUrl(pg.createDatabase())) {
      h.importFrom(roots, ImportListener.NONE);
      assertThat(h.search("aardvark", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u0"));
      // rewritten: same uuids, other text
      claudeFile(projects, "-w", "2ebaa000-0000-4000-8000-0000000000ff", List.of("pangolin", "aardvark again", "x"));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(h.search("pangolin", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u0"));
      assertThat(h.search("aardvark", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u1"));
      assertThat(DetailJson.write(h.detail("2ebaa000-0000-4000-8000-0000000000ff")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, f).detail()));
      // truncated: fewer lines than stored
      claudeFile(projects, "-w", "2ebaa000-0000-4000-8000-0000000000ff", List.of("okapi"));
      h.importFrom(roots, ImportListener.NONE);
      String stored = DetailJson.write(h.detail("2ebaa000-0000-4000-8000-0000000000ff"));
      assertThat(stored).isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, f).detail()))
          .contains("okapi").doesNotContain("aardvark").doesNotContain("pangolin");
      assertThat(h.search("aardvark", 5)).isEmpty();
      assertThat(h.search("pangolin", 5)).isEmpty();
      assertThat(h.search("okapi", 5)).hasSize(1);
    }
  }

  @Test
  void aFailedBatchLeavesNeitherRecordsNorCursor(PostgresServer pg) throws SQLException {
    String url = pg.createDatabase();
    TranscriptHistory.openUrl(url).close();
    execute(url, "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
        + " $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$");
    // make the batch fail after its messages were written
    execute(url, "CREATE TRIGGER refuse BEFORE INSERT ON tool_calls FOR EACH ROW WHEN (new.id = 'toolu_task')"
        + " EXECUTE FUNCTION refuse()");
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      assertThatThrownBy(() -> h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeMain())),
          ImportListener.NONE)).isInstanceOfSatisfying(TranscriptException.class,
              e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
          .hasMessageContaining("refused by test");
    }
    for (String table : List.of("messages", "sessions", "cursors", "search_docs")) {
      assertThat(count(url, "SELECT COUNT(*) FROM " + table)).as(table).isZero();
    }
    execute(url, "DROP TRIGGER refuse ON tool_calls");
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, Fixtures.claudeMain())), ImportListener.NONE);
      assertThat(DetailJson.write(h.detail(MAIN)))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, Fixtures.claudeMain()).detail()));
    }
  }

  /**
   * Two importers (each its own connection, as two processes of a team would be) open one fresh
   * database at once and import different sessions file by file, so their transactions interleave.
   * Row ids are handed out by each writer as MAX + 1: without the per-database write lock they
   * would collide on the primary key.
   */
  @Test
  void concurrentWritersOnOneDatabaseTakeTurns(PostgresServer pg, @TempDir Path dir) throws Exception {
    String url = pg.createDatabase();
    int perWriter = 10;
    List<List<Path>> files = new ArrayList<>();
    for (String writer : List.of("a", "b")) {
      List<Path> mine = new ArrayList<>();
      for (int i = 0; i < perWriter; i++) {
        String id = String.format("%s0000000-0000-4000-8000-%012d", writer.equals("a") ? "a" : "b", i);
        List<String> texts = new ArrayList<>();
        for (int j = 0; j < 12; j++) {
          texts.add("writer" + writer + " file" + i + " line" + j + " shared words");
        }
        mine.add(claudeFile(dir.resolve("projects-" + writer), "-w-" + writer, id, texts));
      }
      files.add(mine);
    }
    CyclicBarrier start = new CyclicBarrier(2);
    long[][] spans = new long[2][2];
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          start.await();
          try (TranscriptHistory h = TranscriptHistory.openUrl(url)) { // both migrate the empty database at once
            spans[writer][0] = System.nanoTime();
            for (Path f : files.get(writer)) {
              h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, f)), ImportListener.NONE);
            }
            spans[writer][1] = System.nanoTime();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    // the two importers really ran at the same time
    assertThat(spans[0][0]).isLessThan(spans[1][1]);
    assertThat(spans[1][0]).isLessThan(spans[0][1]);
    assertThat(count(url, "SELECT COUNT(*) FROM schema_migrations")).isEqualTo(7);
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      assertThat(h.sessions(SessionQuery.all(100)).total()).isEqualTo(2L * perWriter);
      for (UsageGrouping by : List.of(UsageGrouping.DAY, UsageGrouping.SESSION, UsageGrouping.MODEL)) {
        // aggregates kept by two writers taking turns equal a scan of the stored messages
        assertThat(h.usage(by)).as("usage by %s", by).isEqualTo(h.usageByScan(by));
      }
      for (List<Path> mine : files) {
        for (Path f : mine) {
          Transcripts.FreshParse fresh = Transcripts.parse(Provider.CLAUDE, f);
          assertThat(DetailJson.write(h.detail(fresh.unit().sessionId()))).as("detail of %s", f)
              .isEqualTo(DetailJson.write(fresh.detail()));
        }
      }
      assertThat(h.search("writera", 1000)).hasSize(12 * perWriter)
          .allSatisfy(hit -> assertThat(hit.sessionId()).startsWith("a"));
      assertThat(h.search("writerb file7 line3", 10)).singleElement().satisfies(hit -> {
        assertThat(hit.sessionId()).isEqualTo("b0000000-0000-4000-8000-000000000007");
        assertThat(hit.ref()).isEqualTo("u3");
      });
    }
    // every document names its own row: one per message, none left over
    assertThat(count(url, "SELECT COUNT(*) FROM search_docs")).isEqualTo(2L * perWriter * 12);
    assertThat(count(url, "SELECT COUNT(*) FROM search_docs d JOIN messages m ON m.rowid * 4 + 1 = d.doc_id"))
        .isEqualTo(2L * perWriter * 12);
  }

  /** While one writer holds the write lock, another writer waits and readers do not. */
  @Test
  void aWaitingWriterDoesNotBlockReaders(PostgresServer pg, @TempDir Path dir) throws Exception {
    String url = pg.createDatabase();
    Path projects = dir.resolve("projects");
    claudeFile(projects, "-w", "c0000000-0000-4000-8000-000000000001", List.of("capybara"));
    try (TranscriptHistory reader = TranscriptHistory.openUrl(url);
        TranscriptHistory writer = TranscriptHistory.openUrl(url);
        Connection other = PostgresServer.connect(url)) {
      reader.importFrom(fixtureRoots(), ImportListener.NONE);
      String seen = reader.search("limiter", 5).size() + ":" + reader.sessions(SessionQuery.all(10)).total();
      other.setAutoCommit(false);
      try (Statement s = other.createStatement()) {
        s.execute("LOCK TABLE messages, tool_calls, tool_results IN SHARE ROW EXCLUSIVE MODE");
      }
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<ImportReport> write = pool.submit(() -> writer.importFrom(List.of(new Importer.Root(Provider.CLAUDE,
            projects)), ImportListener.NONE));
        assertThatThrownBy(() -> write.get(700, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        Future<String> read = pool.submit(() -> {
          assertThat(reader.detail(MAIN).entries()).isNotEmpty();
          return reader.search("limiter", 5).size() + ":" + reader.sessions(SessionQuery.all(10)).total();
        });
        assertThat(read.get(5, TimeUnit.SECONDS)).isEqualTo(seen).isNotEqualTo("0:0");
        assertThat(write.isDone()).isFalse();
        other.commit();
        assertThat(write.get(10, TimeUnit.SECONDS).records()).isPositive();
      } finally {
        pool.shutdownNow();
      }
      assertThat(reader.search("capybara", 5)).hasSize(1);
    }
  }

  /** A tool output with more distinct words than a tsvector holds is stored whole and indexed within the limit. */
  @Test
  void aHugeVocabularyIsIndexedWithinTheTsvectorLimit(PostgresServer pg, @TempDir Path dir) throws IOException {
    StringBuilder text = new StringBuilder("firstword");
    for (int i = 0; i < 160_000; i++) {
      text.append(' ').append("w").append(Integer.toString(i * 7919 + 1_000_000, 36));
    }
    text.append(" lastword firstword");
    Path projects = dir.resolve("projects");
    Path f = claudeFile(projects, "-w", "d0000000-0000-4000-8000-000000000001", List.of(text.toString(), "small"));
    try (TranscriptHistory h = TranscriptHistory.openUrl(pg.createDatabase())) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, projects)), ImportListener.NONE);
      assertThat(DetailJson.write(h.detail("d0000000-0000-4000-8000-000000000001")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, f).detail()));
      assertThat(h.search("firstword", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u0"));
      assertThat(h.search("small", 5)).singleElement().satisfies(hit -> assertThat(hit.ref()).isEqualTo("u1"));
      // past the budget: the vocabulary's tail is not in the index (the row keeps it)
      assertThat(h.search("lastword", 5)).isEmpty();
    }
  }

  /**
   * PostgreSQL text cannot hold U+0000. Such a character is stored as U+FFFD (in SQLite it stays),
   * and the batch with it — and the files after it — are imported.
   */
  @Test
  void aNulCharacterBecomesAReplacementCharacterAndTheImportGoesOn(PostgresServer pg, TempSqlite db,
      @TempDir Path dir) throws IOException {
    Path projects = dir.resolve("projects");
    Path nul = claudeFile(projects, "-w", "e0000000-0000-4000-8000-000000000001",
        List.of("binary \\u0000 output", "after"));
    Path next = claudeFile(projects, "-w", "e0000000-0000-4000-8000-000000000002", List.of("wombat"));
    Path repaired = claudeFile(dir.resolve("expected"), "-w", "e0000000-0000-4000-8000-000000000001",
        List.of("binary \\ufffd output", "after"));
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, projects));
    try (TranscriptHistory p = TranscriptHistory.openUrl(pg.createDatabase());
        TranscriptHistory s = TranscriptHistory.open(db.file())) {
      p.importFrom(roots, ImportListener.NONE);
      s.importFrom(roots, ImportListener.NONE);
      String fresh = DetailJson.write(Transcripts.parse(Provider.CLAUDE, nul).detail());
      assertThat(fresh).contains("\\u0000");
      assertThat(DetailJson.write(s.detail("e0000000-0000-4000-8000-000000000001"))).isEqualTo(fresh);
      assertThat(DetailJson.write(p.detail("e0000000-0000-4000-8000-000000000001")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, repaired).detail()))
          .contains("\ufffd").doesNotContain("\\u0000");
      assertThat(DetailJson.write(p.detail("e0000000-0000-4000-8000-000000000002")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, next).detail()));
      assertThat(rows(p.search("binary output", 5))).isEqualTo(rows(s.search("binary output", 5))).hasSize(1);
    }
  }

  /** Ends the server sessions of agentdesk stores on {@code url}'s database (as a restart would), waiting for them. */
  private static long terminateStores(String url) throws SQLException {
    return count(url, "SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
        + " WHERE application_name = 'agentdesk' AND datname = current_database()");
  }

  /** The server drops the connection (restart, terminated session): the next call works on a new one. */
  @Test
  void aLostConnectionIsReplacedByTheNextCall(PostgresServer pg, @TempDir Path dir) throws Exception {
    String url = pg.createDatabase();
    Path projects = dir.resolve("projects");
    Path f = claudeFile(projects, "-w", "f0000000-0000-4000-8000-000000000001", List.of("quokka"));
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      h.importFrom(fixtureRoots(), ImportListener.NONE);
      String detail = DetailJson.write(h.detail(MAIN));
      assertThat(terminateStores(url)).isEqualTo(1);
      assertThat(h.sessions(SessionQuery.all(10)).total()).isEqualTo(5);
      assertThat(terminateStores(url)).isEqualTo(1);
      assertThat(DetailJson.write(h.detail(MAIN))).isEqualTo(detail);
      assertThat(terminateStores(url)).isEqualTo(1);
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, projects)), ImportListener.NONE);
      assertThat(h.search("quokka", 5)).singleElement()
          .satisfies(hit -> assertThat(hit.sessionId()).isEqualTo("f0000000-0000-4000-8000-000000000001"));
      assertThat(DetailJson.write(h.detail("f0000000-0000-4000-8000-000000000001")))
          .isEqualTo(DetailJson.write(Transcripts.parse(Provider.CLAUDE, f).detail()));
    }
  }

  @Test
  void anUnusableServerIsAClearErrorWithoutThePassword(PostgresServer pg) {
    String unreachable = "jdbc:postgresql://127.0.0.1:1/x?user=a&password=hunter2";
    assertThatThrownBy(() -> TranscriptHistory.openUrl(unreachable)).isInstanceOfSatisfying(TranscriptException.class,
        e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
        .hasMessageContaining("password=***").hasMessageContaining("check that the PostgreSQL server runs")
        .hasMessageNotContaining("hunter2");
    String wrongPassword = pg.createDatabase().replace(PostgresServer.PASSWORD, "hunter2");
    assertThatThrownBy(() -> TranscriptHistory.openUrl(wrongPassword)).isInstanceOfSatisfying(TranscriptException.class,
        e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
        .hasMessageContaining("password authentication failed").hasMessageNotContaining("hunter2");
    String noDatabase = pg.jdbcUrl("no_such_db");
    assertThatThrownBy(() -> TranscriptHistory.openUrl(noDatabase)).isInstanceOfSatisfying(TranscriptException.class,
        e -> assertThat(e.reason()).isEqualTo(TranscriptException.Reason.STORE_FAILURE))
        .hasMessageContaining("no_such_db").hasMessageContaining("does not exist")
        .hasMessageNotContaining(PostgresServer.PASSWORD);
  }
}
