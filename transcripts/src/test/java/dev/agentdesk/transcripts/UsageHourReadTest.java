package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reports by block and by another zone's days are summed per UTC hour in SQL (ADR 0041). They must
 * equal the per-response read exactly: same rows, blocks, edges and totals, on a history built to
 * put the edges inside hours (several sessions in one hour, responses at every minute, contexts in
 * every price tier, one response copied into two sessions with different output) and on the real
 * files of the peer corpus.
 */
class UsageHourReadTest {
  static final String[] MODELS = {"claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "claude-opus-4-1-20250805"};
  static final List<ZoneId> ZONES = List.of(ZoneOffset.UTC, ZoneId.of("Europe/Berlin"), ZoneId.of("Asia/Kolkata"),
      ZoneId.of("Asia/Kathmandu"), ZoneId.of("America/St_Johns"));

  static String line(String uuid, String responseId, Instant at, String cwd, String model, long input, long output,
      long cacheRead) {
    return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + at + "\",\"cwd\":\"" + cwd + "\","
        + "\"requestId\":\"req-" + responseId + "\",\"message\":{\"id\":\"msg-" + responseId
        + "\",\"role\":\"assistant\",\"model\":\"" + model + "\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
        + "\"usage\":{\"input_tokens\":" + input + ",\"output_tokens\":" + output + ",\"cache_read_input_tokens\":"
        + cacheRead + "}}}\n";
  }

  @Test
  void aGeneratedHistoryReadsTheSamePerHourAsPerResponse(@TempDir Path dir) throws IOException {
    Random random = new Random(41);
    Instant t0 = Instant.parse("2026-10-20T00:00:00Z");
    for (int s = 0; s < 6; s++) {
      Path project = Files.createDirectories(dir.resolve("projects/-home-dev-p" + (s % 3)));
      StringBuilder file = new StringBuilder();
      Instant at = t0.plusSeconds(random.nextInt(3600 * 6));
      for (int n = 0; n < 250; n++) {
        // mostly minutes apart, sometimes hours, now and then a gap of five hours and more
        int step = switch (random.nextInt(20)) {
          case 0 -> 5 * 3600 + random.nextInt(2) * random.nextInt(600);
          case 1 -> 3600 * (1 + random.nextInt(8));
          default -> 1 + random.nextInt(900);
        };
        at = at.plusSeconds(step).plusMillis(random.nextInt(1000));
        long context = switch (random.nextInt(4)) {
          case 0 -> 150_000;
          case 1 -> 250_000;
          case 2 -> 300_000;
          default -> random.nextInt(100_000);
        };
        long cacheRead = context / 2;
        file.append(line("u" + s + "-" + n, "s" + s + "-" + n, at, "/home/dev/p" + (s % 3), MODELS[random.nextInt(3)],
            context - cacheRead, random.nextInt(5000), cacheRead));
        if (n % 40 == 7) { // the same response, later and with more output, in the next session's file too
          file.append(line("u" + s + "-" + n + "-again", "s" + s + "-" + n, at.plusSeconds(30), "/home/dev/p" + (s % 3),
              MODELS[0], 10, 9000, 0));
        }
      }
      Files.writeString(project.resolve("s" + s + ".jsonl"), file);
    }
    Path db = dir.resolve("h.db");
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects"))), ImportListener.NONE);
      int blocks = 0;
      for (ZoneId zone : ZONES) {
        for (UsageQuery q : queries(zone, LocalDate.of(2026, 10, 21), LocalDate.of(2026, 10, 23), "p1")) {
          UsageReport hourly = h.usageReport(q, PriceTable.bundled());
          assertSame(hourly, h.usageReportPerResponse(q, PriceTable.bundled()), q + " in " + zone);
          blocks += hourly.blocks().size();
        }
      }
      assertThat(blocks).as("the history has blocks to compare").isGreaterThan(100);
    }
  }

  @Test
  void thePeerCorpusReadsTheSamePerHourAsPerResponse(@TempDir Path dir) {
    Path home = SharedCorpus.require("corpus/transcripts-peer/home");
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, home.resolve(".claude/projects")),
          new Importer.Root(Provider.CODEX, home.resolve(".codex/sessions"))), ImportListener.NONE);
      UsageReport all = h.usageReport(UsageQuery.of(UsageGrouping.BLOCK), PriceTable.bundled());
      assertThat(all.blocks()).isNotEmpty();
      LocalDate firstDay = all.blocks().get(0).firstAt().atZone(ZoneOffset.UTC).toLocalDate();
      for (ZoneId zone : ZONES) {
        for (UsageQuery q : queries(zone, firstDay, firstDay.plusDays(30), null)) {
          assertSame(h.usageReport(q, PriceTable.bundled()), h.usageReportPerResponse(q, PriceTable.bundled()),
              q + " in " + zone);
        }
      }
    }
  }

  /**
   * The hour sums are kept by the import (ADR 0042): when a response's winner moves to another
   * session, comes back, or a file is read again from its start, the hour rows follow, first and
   * last times included. After each step the kept rows equal the winners grouped anew, and the
   * reports equal the per-response read.
   */
  @Test
  void keptHourSumsFollowWinnersThatMoveAndFilesReadAgain(@TempDir Path dir) throws Exception {
    Path projects = Files.createDirectories(dir.resolve("projects/-home-dev-p"));
    Instant ten = Instant.parse("2026-10-20T10:00:00Z");
    String m = MODELS[0];
    Path a = projects.resolve("a.jsonl");
    Files.writeString(a, line("a1", "r1", ten.plusSeconds(5 * 60), "/home/dev/p", m, 100, 10, 0)
        + line("a2", "r2", ten.plusSeconds(20 * 60), "/home/dev/p", m, 100, 20, 0)
        + line("a3", "r3", ten.plusSeconds(50 * 60), "/home/dev/p", m, 100, 30, 0)
        + line("a4", "r4", ten.plusSeconds(4 * 3600), "/home/dev/p", m, 100, 40, 0));
    Path db = dir.resolve("h.db");
    List<Importer.Root> roots = List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects")));
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      h.importFrom(roots, ImportListener.NONE);
      assertThat(hourRow(db, "a", ten)).isEqualTo("3 responses 10:05:00Z-10:50:00Z");
      assertKeptAndSame(h, db);

      // r1 and r3 again in session b with more output: b's copies count, a's hour keeps r2 only
      Path b = projects.resolve("b.jsonl");
      Files.writeString(b, line("b1", "r1", ten.plusSeconds(150 * 60), "/home/dev/p", m, 100, 500, 0)
          + line("b3", "r3", ten.plusSeconds(160 * 60), "/home/dev/p", m, 100, 600, 0));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(hourRow(db, "a", ten)).isEqualTo("1 responses 10:20:00Z-10:20:00Z");
      assertKeptAndSame(h, db);

      // an appended line later in the same hour
      Files.writeString(a, line("a5", "r5", ten.plusSeconds(55 * 60), "/home/dev/p", m, 100, 50, 0),
          java.nio.file.StandardOpenOption.APPEND);
      h.importFrom(roots, ImportListener.NONE);
      assertThat(hourRow(db, "a", ten)).isEqualTo("2 responses 10:20:00Z-10:55:00Z");
      assertKeptAndSame(h, db);

      // b rewritten from its first line without r1: r1 counts in a again, its hour starts at 10:05 again
      Files.writeString(b, line("b9", "r9", ten.plusSeconds(170 * 60), "/home/dev/p", m, 100, 5, 0)
          + line("b3", "r3", ten.plusSeconds(160 * 60), "/home/dev/p", m, 100, 600, 0));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(hourRow(db, "a", ten)).isEqualTo("3 responses 10:05:00Z-10:55:00Z");
      assertKeptAndSame(h, db);

      // before 1970, without a time, with absurd counts
      Files.writeString(projects.resolve("c.jsonl"), line("c1", "c1", Instant.parse("1969-12-31T23:30:00Z"),
          "/home/dev/p", m, 100, 10, 0) + line("c2", "c2", Instant.parse("1969-12-31T23:59:59Z"), "/home/dev/p", m,
          100, 10, 0) + line("c3", "c3", ten, "/home/dev/p", m, 100, 10, 0).replace("\"timestamp\":\"" + ten + "\",", "")
          + line("c4", "c4", ten.plusSeconds(70 * 60), "/home/dev/p", m, 2_000_000_000L, 10, 0));
      h.importFrom(roots, ImportListener.NONE);
      assertThat(hourRow(db, "c", Instant.parse("1969-12-31T23:00:00Z"))).isEqualTo("2 responses 23:30:00Z-23:59:59Z");
      assertKeptAndSame(h, db);
    }
  }

  /** Session {@code session}'s usage_hours row of the hour starting at {@code hour}: count and times. */
  private static String hourRow(Path db, String session, Instant hour) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.PreparedStatement p = c.prepareStatement("SELECT responses, first_ms, last_ms FROM usage_hours"
            + " WHERE session_id = ? AND hour = ?")) {
      p.setString(1, session);
      p.setLong(2, Math.floorDiv(hour.toEpochMilli(), 3_600_000L));
      try (java.sql.ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).as("an hour row of %s at %s", session, hour).isTrue();
        return rs.getLong(1) + " responses " + Instant.ofEpochMilli(rs.getLong(2)).toString().substring(11) + "-"
            + Instant.ofEpochMilli(rs.getLong(3)).toString().substring(11);
      }
    }
  }

  /** usage_hours equals the counted candidates grouped here, and the reports equal the per-response read. */
  private static void assertKeptAndSame(TranscriptHistory h, Path db) throws java.sql.SQLException {
    java.util.Map<String, long[]> expected = new java.util.TreeMap<>();
    java.util.Map<String, long[]> kept = new java.util.TreeMap<>();
    long[] bounds = dev.agentdesk.transcripts.store.TranscriptStore.contextBounds();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        java.sql.Statement st = c.createStatement()) {
      try (java.sql.ResultSet rs = st.executeQuery("SELECT session_id, day, model, at_ms, input_tokens, output_tokens,"
          + " cache_read_tokens, cache_write_tokens, cache_write_1h_tokens FROM usage_candidates WHERE winner = 1")) {
        while (rs.next()) {
          dev.agentdesk.transcripts.records.TokenUsage u = new dev.agentdesk.transcripts.records.TokenUsage(
              rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9));
          long at = rs.getLong(4);
          boolean timed = !rs.wasNull();
          int bucket = -1;
          if (u.plausible()) {
            bucket = 0;
            for (long bound : bounds) {
              bucket += u.input() + u.cacheRead() + u.cacheCreation() > bound ? 1 : 0;
            }
          }
          String key = String.join("|", rs.getString(1), timed ? Long.toString(Math.floorDiv(at, 3_600_000L)) : "none",
              rs.getString(2), rs.getString(3), Integer.toString(bucket));
          long[] e = expected.computeIfAbsent(key, k -> new long[] {0, 0, 0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
          e[0]++;
          if (bucket >= 0) {
            e[1] += u.input();
            e[2] += u.output();
            e[3] += u.cacheRead();
            e[4] += u.cacheCreation();
            e[5] += u.cacheCreation1h();
          }
          e[6] = timed ? Math.min(e[6], at) : 0;
          e[7] = timed ? Math.max(e[7], at) : 0;
        }
      }
      try (java.sql.ResultSet rs = st.executeQuery("SELECT session_id, hour, day, model, bucket, responses,"
          + " input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, first_ms, last_ms"
          + " FROM usage_hours")) {
        while (rs.next()) {
          boolean timed = rs.getObject(12) != null;
          String key = String.join("|", rs.getString(1), timed ? Long.toString(rs.getLong(2)) : "none", rs.getString(3),
              rs.getString(4), Integer.toString(rs.getInt(5)));
          kept.put(key, new long[] {rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10),
              rs.getLong(11), rs.getLong(12), rs.getLong(13)});
        }
      }
    }
    assertThat(kept.keySet()).isEqualTo(expected.keySet());
    expected.forEach((k, e) -> assertThat(kept.get(k)).as("hour row %s", k).containsExactly(e));
    for (ZoneId zone : List.of(ZoneOffset.UTC, ZoneId.of("Europe/Berlin"))) {
      for (UsageGrouping by : List.of(UsageGrouping.BLOCK, UsageGrouping.DAY)) {
        UsageQuery q = UsageQuery.of(by).zone(zone);
        assertSame(h.usageReport(q, PriceTable.bundled()), h.usageReportPerResponse(q, PriceTable.bundled()),
            q + " in " + zone);
      }
    }
  }

  private static List<UsageQuery> queries(ZoneId zone, LocalDate since, LocalDate until, String project) {
    List<UsageQuery> out = new ArrayList<>();
    for (UsageGrouping by : List.of(UsageGrouping.BLOCK, UsageGrouping.DAY, UsageGrouping.WEEK, UsageGrouping.MONTH,
        UsageGrouping.SESSION, UsageGrouping.MODEL)) {
      UsageQuery q = UsageQuery.of(by).zone(zone);
      out.add(q);
      out.add(q.between(since, until));
      out.add(q.between(since, null).breakdown(true));
      if (project != null) {
        out.add(q.project(project));
      }
    }
    return out;
  }

  private static void assertSame(UsageReport hourly, UsageReport each, String what) {
    assertThat(hourly.rows()).as("rows of %s", what).hasSameSizeAs(each.rows());
    for (int i = 0; i < each.rows().size(); i++) {
      assertSameRow(hourly.rows().get(i), each.rows().get(i), what);
    }
    assertSameRow(hourly.total(), each.total(), what);
    assertThat(hourly.blocks()).as("blocks of %s", what).hasSameSizeAs(each.blocks());
    for (int i = 0; i < each.blocks().size(); i++) {
      UsageBlock a = hourly.blocks().get(i);
      UsageBlock b = each.blocks().get(i);
      assertThat(List.of(a.start(), a.end(), a.firstAt(), a.lastAt(), a.responses(), a.usage(), a.models()))
          .as("block %d of %s", i, what).isEqualTo(List.of(b.start(), b.end(), b.firstAt(), b.lastAt(), b.responses(),
              b.usage(), b.models()));
      assertThat(a.costUsd()).as("block %d cost of %s", i, what).isCloseTo(b.costUsd(), within(1e-9));
    }
    assertThat(hourly.breakdown().keySet()).as("breakdown of %s", what).isEqualTo(each.breakdown().keySet());
    each.breakdown().forEach((key, parts) -> {
      assertThat(hourly.breakdown().get(key)).hasSameSizeAs(parts);
      for (int i = 0; i < parts.size(); i++) {
        assertSameRow(hourly.breakdown().get(key).get(i), parts.get(i), what + " " + key);
      }
    });
    assertThat(hourly.warnings()).as("warnings of %s", what).isEqualTo(each.warnings());
    assertThat(hourly.rejectedResponses()).isEqualTo(each.rejectedResponses());
  }

  private static void assertSameRow(UsageRow a, UsageRow b, String what) {
    assertThat(List.of(a.key(), a.responses(), a.usage(), a.unpricedResponses()))
        .as("row %s of %s", b.key(), what).isEqualTo(List.of(b.key(), b.responses(), b.usage(), b.unpricedResponses()));
    assertThat(a.costUsd()).as("cost of row %s of %s", b.key(), what).isCloseTo(b.costUsd(), within(1e-9));
  }
}
