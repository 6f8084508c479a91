package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.transcripts.UsageLimit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdesk statusline} with the JSON Claude Code documents for its statusLine command, on a
 * real SQLite file: 1000 + 2000 input tokens of Sonnet ($3/M) today at 20:10 and 21:50 UTC in this
 * session, so the session and today cost $0.009 and the block 20:00–01:00 is active at 22:10.
 */
class StatuslineCommandTest {
  static final String SESSION = "5e55a000-0000-4000-8000-000000000001";
  /** Claude Code's documented statusLine input (code.claude.com/docs/en/statusline), for {@link #SESSION}. */
  static final String INPUT = """
      {"hook_event_name": "Status", "session_id": "%s",
       "transcript_path": "/home/dev/.claude/projects/-home-dev-shop/%s.jsonl", "cwd": "/home/dev/shop",
       "model": {"id": "claude-sonnet-4-5-20250929", "display_name": "Sonnet 4.5"},
       "workspace": {"current_dir": "/home/dev/shop", "project_dir": "/home/dev/shop"},
       "version": "2.1.0", "output_style": {"name": "default"},
       "cost": {"total_cost_usd": 0.0123, "total_duration_ms": 45000, "total_api_duration_ms": 2300,
                "total_lines_added": 156, "total_lines_removed": 23}}
      """.formatted(SESSION, SESSION);

  @TempDir
  Path dir;
  Path db;
  InputStream stdin;

  @BeforeEach
  void importFixture() throws IOException {
    stdin = System.in;
    Path project = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    Files.writeString(project.resolve(SESSION + ".jsonl"),
        HistoryUsagePeriodsCliTest.line("a1", "2026-12-01T20:10:00.000Z", 1000).replace("{\"type\"",
            "{\"sessionId\":\"" + SESSION + "\",\"type\"")
            + HistoryUsagePeriodsCliTest.line("a2", "2026-12-01T21:50:00.000Z", 2000).replace("{\"type\"",
            "{\"sessionId\":\"" + SESSION + "\",\"type\""));
    db = dir.resolve("h.db");
    CliRun imported = run("history", "import", "--claude", dir.resolve("projects").toString(), "--no-progress",
        "--db", db.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
  }

  @AfterEach
  void restoreStdin() {
    System.setIn(stdin);
  }

  private CliRun statusline(String input, String... args) {
    System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    String[] all = new String[args.length + 5];
    all[0] = "statusline";
    all[1] = "--timezone";
    all[2] = "UTC";
    all[3] = "--now";
    all[4] = "2026-12-01T22:10:00Z";
    System.arraycopy(args, 0, all, 5, args.length);
    return run(all);
  }

  @Test
  void fromTheDatabaseTheSessionTodayAndTheActiveBlock() {
    CliRun r = statusline(INPUT, "--server", "none", "--db", db.toString(), "--timeout-ms", "5000");
    assertThat(r.exit()).isZero();
    // 3000 tokens over the 120 minutes since 20:10: 25 tokens/min, $0.0045/h; 170 minutes left
    assertThat(r.out().strip()).isEqualTo(
        "Sonnet 4.5 | session $0.0090 | today $0.0090 | block 2h50m left, $0.0045/h, 25 tok/min");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void theKnownUsageWindowThatResetsNextEndsTheLine() {
    java.time.Instant seen = java.time.Instant.parse("2026-12-01T21:00:00Z");
    try (dev.agentdesk.transcripts.TranscriptHistory h = dev.agentdesk.transcripts.TranscriptHistory.open(db)) {
      h.recordLimits(java.util.List.of(
          // reset already (22:00 is before "now", 22:10): no longer holds
          new UsageLimit("claude", "rate limit", null, null, java.time.Instant.parse("2026-12-01T22:00:00Z"), seen,
              null, UsageLimit.Origin.TERMINAL),
          new UsageLimit("codex", "primary", 45.0, 300L, java.time.Instant.parse("2026-12-01T23:40:00Z"), seen,
              "s1", UsageLimit.Origin.TRANSCRIPT),
          new UsageLimit("codex", "secondary", 12.0, 10080L, java.time.Instant.parse("2026-12-05T00:00:00Z"), seen,
              "s1", UsageLimit.Origin.TRANSCRIPT)));
    }
    CliRun r = statusline(INPUT, "--server", "none", "--db", db.toString(), "--timeout-ms", "5000");
    assertThat(r.out().strip()).isEqualTo("Sonnet 4.5 | session $0.0090 | today $0.0090 | block 2h50m left, $0.0045/h,"
        + " 25 tok/min | codex primary 45% resets in 1h30m");
  }

  @Test
  void aServerThatIsNotThereIsSkippedForTheDatabase() {
    CliRun r = statusline(INPUT, "--server", "http://127.0.0.1:1/", "--db", db.toString(), "--timeout-ms", "5000");
    assertThat(r.out()).contains("today $0.0090").contains("block 2h50m left");
  }

  @Test
  void aMissingDatabaseOrBadInputStillGivesALineAndNoTrace() {
    CliRun missing = statusline(INPUT, "--server", "none", "--db", dir.resolve("nope.db").toString());
    assertThat(missing.exit()).isZero();
    assertThat(missing.out().strip()).isEqualTo("Sonnet 4.5 | session $0.0123"); // Claude Code's own figure
    assertThat(missing.err()).isEmpty();
    assertThat(Files.exists(dir.resolve("nope.db"))).as("no database is created").isFalse();

    CliRun garbage = statusline("not json", "--server", "none", "--db", dir.resolve("nope.db").toString());
    assertThat(garbage.exit()).isZero();
    assertThat(garbage.out().strip()).isEqualTo("agentdesk");
  }

  @Test
  void aDatabaseLockedByAWriterIsStillRead() throws Exception {
    // the history is in WAL mode: an import's write transaction does not stop a reader
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("BEGIN EXCLUSIVE");
      CliRun r = statusline(INPUT, "--server", "none", "--db", db.toString(), "--timeout-ms", "5000");
      assertThat(r.exit()).isZero();
      assertThat(r.out()).contains("today $0.0090");
      assertThat(r.err()).isEmpty();
      s.execute("ROLLBACK");
    }
  }

  @Test
  void aServerThatDoesNotAnswerIsNotWaitedFor() throws Exception {
    // accepts the connection, never answers: only the deadline ends the wait
    try (SilentServer silent = new SilentServer()) {
      long start = System.nanoTime();
      CliRun r = statusline(INPUT, "--server", silent.url(), "--db",
          db.toString(), "--timeout-ms", "300");
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertThat(r.exit()).isZero();
      assertThat(r.out().strip()).isEqualTo("Sonnet 4.5 | session $0.0123");
      assertThat(r.err()).isEmpty();
      assertThat(ms).as("ms").isLessThan(1500);
    }
  }

  /** A serve on this test's database (no import: the fixture is already in it), with {@code access}. */
  TestServer serve(ServeConfig.Access access) {
    return TestServer.start(new ServeConfig("127.0.0.1", 0, access, new ServeConfig.Database.SqliteFile(db),
        dir.resolve("claude-none"), dir.resolve("codex-none"), false, dir.resolve("serve-data")), dir);
  }

  @Test
  void aRunningServeAnswersTheSameLineInOneRequest() throws Exception {
    try (TestServer s = serve(TestServer.newToken())) {
      TestServer.Response r = s.sendRaw(s.request("/api/history/statusline?timezone=UTC&now=2026-12-01T22:10:00Z")
          .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(INPUT)));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
      assertThat(r.body()).isEqualTo(
          "Sonnet 4.5 | session $0.0090 | today $0.0090 | block 2h50m left, $0.0045/h, 25 tok/min\n");
      // the token is required as for every other route
      assertThat(s.sendRaw(java.net.http.HttpRequest.newBuilder(java.net.URI.create(s.base + "/api/history/statusline"))
          .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(INPUT)))
          .status()).isEqualTo(401);
      assertThat(s.sendRaw(s.request("/api/history/statusline?timezone=Mars/Olympus").header("Content-Type",
          "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(INPUT))).status()).isEqualTo(400);
    }
  }

  @Test
  void theCommandTakesTheServesLine() throws Exception {
    // the command's own database does not exist: the figures can only come from the serve
    try (TestServer s = serve(new ServeConfig.Access.None())) {
      CliRun r = statusline(INPUT, "--server", s.base, "--db", dir.resolve("nope.db").toString(), "--timeout-ms",
          "5000");
      assertThat(r.exit()).isZero();
      assertThat(r.out().strip()).isEqualTo(
          "Sonnet 4.5 | session $0.0090 | today $0.0090 | block 2h50m left, $0.0045/h, 25 tok/min");
      assertThat(r.err()).isEmpty();
    }
  }

  @Test
  void theLineWithoutFigures() {
    assertThat(StatuslineCommand.line(new StatuslineCommand.Input(null, "", null), null)).isEqualTo("agentdesk");
  }
  @Test
  void claudeCodesInputIsReadAsDocumented() {
    assertThat(StatuslineCommand.Input.parse(INPUT.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new StatuslineCommand.Input(SESSION, "Sonnet 4.5", 0.0123));
  }

  @Test
  void inputThatIsNotWhatClaudeCodeSendsReadsAsUnknown() {
    StatuslineCommand.Input unknown = new StatuslineCommand.Input(null, "", null);
    for (String bad : new String[] {"", "not json", "[1,2]", "\"text\"", "{\"session_id\": \"s\", \"model\": {\"id\"",
        "{\"session_id\": \"s\",", "\u0000\u00ff{"}) {
      assertThat(StatuslineCommand.Input.parse(bad.getBytes(StandardCharsets.ISO_8859_1))).as(bad).isEqualTo(unknown);
    }
    // no display name: the id; a value of the wrong kind is unknown, the others stand
    assertThat(parse("{\"model\": {\"id\": \"claude-opus-4-1\"}, \"session_id\": null, \"cost\": {\"total_cost_usd\": \"1\"}}"))
        .isEqualTo(new StatuslineCommand.Input(null, "claude-opus-4-1", null));
    assertThat(parse("{\"session_id\": {\"a\": [1, {\"b\": 2}]}, \"model\": [\"x\"], \"cost\": {\"total_cost_usd\": 2}}"))
        .isEqualTo(new StatuslineCommand.Input(null, "", 2.0));
    // nested objects and arrays elsewhere are skipped whole; the last of a repeated key wins
    assertThat(parse("{\"workspace\": {\"session_id\": \"inner\", \"a\": [{\"model\": 1}]}, \"session_id\": 7,"
        + " \"model\": {\"meta\": {\"id\": \"inner\"}, \"display_name\": \"Opus\"}, \"session_id\": \"s2\"}"))
        .isEqualTo(new StatuslineCommand.Input("s2", "Opus", null));
  }

  @Test
  void thePlainOptionsAreExactlyPicocliOnesAndReadAsPicocliReadsThem() {
    java.util.Set<String> picocli = new java.util.HashSet<>();
    for (picocli.CommandLine.Model.OptionSpec o : new picocli.CommandLine(new StatuslineCommand()).getCommandSpec()
        .options()) {
      if (!o.usageHelp() && !o.versionHelp()) {
        picocli.add(o.longestName());
      }
    }
    assertThat(StatuslineCommand.PLAIN_OPTIONS).isEqualTo(picocli);
    for (String[] args : new String[][] {{}, {"--server", "none"}, {"--server=http://127.0.0.1:9/", "--timeout-ms", "50"},
        {"--db", "/tmp/h.db", "--timezone", "Asia/Kolkata", "--now", "2026-12-01T22:10:00Z"},
        {"--db-url=jdbc:postgresql://h/d?user=u", "--timeout-ms=1200"}, {"--db-url-file", "/tmp/url"},
        {"--timezone=UTC", "--server", "http://x:1/a=b"}}) {
      StatuslineCommand plain = StatuslineCommand.plain(args, new java.io.PrintWriter(new java.io.StringWriter()));
      StatuslineCommand parsed = new StatuslineCommand();
      new picocli.CommandLine(parsed).parseArgs(args);
      assertThat(plain).as(String.join(" ", args)).isNotNull();
      assertThat(java.util.List.of(String.valueOf(plain.server), plain.timeoutMs, String.valueOf(plain.timezone),
          String.valueOf(plain.now), String.valueOf(plain.db.db), String.valueOf(plain.db.url),
          String.valueOf(plain.db.urlFile)))
          .as(String.join(" ", args))
          .isEqualTo(java.util.List.of(String.valueOf(parsed.server), parsed.timeoutMs, String.valueOf(parsed.timezone),
              String.valueOf(parsed.now), String.valueOf(parsed.db.db), String.valueOf(parsed.db.url),
              String.valueOf(parsed.db.urlFile)));
    }
  }

  @Test
  void anythingButThePlainOptionsIsAnsweredByPicocli() {
    for (String[] args : new String[][] {{"--help"}, {"-h"}, {"--version"}, {"--bogus", "x"}, {"--timeout-ms", "soon"},
        {"--db"}, {"--db", "--server", "none"}, {"--server", "a", "--server", "b"}, {"stray"}, {"--db=a", "-h"}}) {
      assertThat(StatuslineCommand.plain(args, new java.io.PrintWriter(new java.io.StringWriter())))
          .as(String.join(" ", args)).isNull();
    }
    CliRun help = run("statusline", "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).startsWith("Usage: agentdesk statusline").contains("--timeout-ms=MS");
    CliRun typo = statusline(INPUT, "--server", "none", "--dbb", db.toString());
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err()).contains("Unknown options: '--dbb'").contains("Possible solutions: --db");
    CliRun badValue = statusline(INPUT, "--timeout-ms", "soon");
    assertThat(badValue.exit()).isEqualTo(2);
    assertThat(badValue.err()).contains("--timeout-ms").contains("soon");
  }

  private static StatuslineCommand.Input parse(String json) {
    return StatuslineCommand.Input.parse(json.getBytes(StandardCharsets.UTF_8));
  }
}
