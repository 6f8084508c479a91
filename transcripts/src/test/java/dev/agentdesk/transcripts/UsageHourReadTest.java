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
