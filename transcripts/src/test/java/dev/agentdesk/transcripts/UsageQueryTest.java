package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periods, filters and blocks against a hand-computed fixture. Input tokens only, so a row's tokens
 * say which responses it holds: r1 1000, r2 2000, r3 3000, r4 4000 (Sonnet, project shop), r5 5000
 * (Haiku, project blog). Europe/Berlin leaves summer time on 2026-10-25 (03:00 CEST becomes 02:00
 * CET, at 01:00 UTC).
 *
 * <pre>
 * response  UTC                   Berlin                  Berlin week / month
 * r1        2026-10-24T22:30Z     2026-10-25 00:30 CEST   2026-W43 / 2026-10
 * r2        2026-10-25T22:30Z     2026-10-25 23:30 CET    2026-W43 / 2026-10
 * r3        2026-10-25T23:30Z     2026-10-26 00:30 CET    2026-W44 / 2026-10
 * r4        2026-10-31T23:30Z     2026-11-01 00:30 CET    2026-W44 / 2026-11
 * r5        2026-11-02T08:00Z     2026-11-02 09:00 CET    2026-W45 / 2026-11
 * </pre>
 *
 * Blocks (project ops, UTC): b1 10:20, b2 14:59:59 (both in the block 10:00–15:00), b3 15:00:00
 * exactly (the end of the first: a new block 15:00–20:00, so the session spans two), b4 20:00:00
 * (a gap of exactly 5 h: a third block 20:00–01:00), b5 20:30 in the third.
 */
class UsageQueryTest {
  static final String SONNET = "claude-sonnet-4-5-20250929";
  static final String HAIKU = "claude-haiku-4-5-20251001";
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  static final PriceTable PRICES = PriceTable.bundled();

  @TempDir
  Path dir;
  Path db;

  static String line(String uuid, String ts, String cwd, String model, long input) {
    return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + ts + "\",\"cwd\":\"" + cwd + "\","
        + "\"requestId\":\"req-" + uuid + "\",\"message\":{\"id\":\"msg-" + uuid + "\",\"role\":\"assistant\","
        + "\"model\":\"" + model + "\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"usage\":{\"input_tokens\":"
        + input + ",\"output_tokens\":0}}}\n";
  }

  @BeforeEach
  void setUp() throws IOException {
    Path shop = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    Path blog = Files.createDirectories(dir.resolve("projects/-home-dev-blog"));
    Path ops = Files.createDirectories(dir.resolve("projects/-home-dev-ops"));
    Files.writeString(shop.resolve("s1.jsonl"),
        line("r1", "2026-10-24T22:30:00.000Z", "/home/dev/shop", SONNET, 1000)
            + line("r2", "2026-10-25T22:30:00.000Z", "/home/dev/shop", SONNET, 2000)
            + line("r3", "2026-10-25T23:30:00.000Z", "/home/dev/shop", SONNET, 3000)
            + line("r4", "2026-10-31T23:30:00.000Z", "/home/dev/shop", SONNET, 4000));
    Files.writeString(blog.resolve("s2.jsonl"), line("r5", "2026-11-02T08:00:00.000Z", "/home/dev/blog", HAIKU, 5000));
    Files.writeString(ops.resolve("s3.jsonl"),
        line("b1", "2026-12-01T10:20:00.000Z", "/home/dev/ops", SONNET, 100)
            + line("b2", "2026-12-01T14:59:59.000Z", "/home/dev/ops", SONNET, 200)
            + line("b3", "2026-12-01T15:00:00.000Z", "/home/dev/ops", SONNET, 400)
            + line("b4", "2026-12-01T20:00:00.000Z", "/home/dev/ops", SONNET, 2000)
            + line("b5", "2026-12-01T20:30:00.000Z", "/home/dev/ops", SONNET, 4000));
    db = dir.resolve("h.db");
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects"))), ImportListener.NONE);
    }
  }

  private UsageReport report(UsageQuery q) {
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      UsageReport r = h.usageReport(q, PRICES);
      totalIsTheSumOfTheRows(r);
      return r;
    }
  }

  /** Rows as key → input tokens, in report order; the ops project (blocks) left out unless asked. */
  private Map<String, Long> inputs(UsageQuery q) {
    Map<String, Long> out = new LinkedHashMap<>();
    report(q).rows().forEach(r -> out.put(r.key(), r.usage().input()));
    return out;
  }

  private static UsageQuery autumn(UsageGrouping by) {
    return UsageQuery.of(by).between(null, LocalDate.of(2026, 11, 30));
  }

  static void totalIsTheSumOfTheRows(UsageReport r) {
    long responses = r.rows().stream().mapToLong(UsageRow::responses).sum();
    long input = r.rows().stream().mapToLong(x -> x.usage().input()).sum();
    double cost = r.rows().stream().mapToDouble(UsageRow::costUsd).sum();
    assertThat(r.total().responses()).as("total responses").isEqualTo(responses);
    assertThat(r.total().usage().input()).as("total input").isEqualTo(input);
    assertThat(r.total().costUsd()).as("total cost").isCloseTo(cost, within(1e-12));
    r.breakdown().forEach((key, parts) -> {
      UsageRow row = r.rows().stream().filter(x -> x.key().equals(key)).findFirst().orElseThrow();
      assertThat(parts.stream().mapToLong(x -> x.usage().input()).sum()).as("breakdown of %s", key)
          .isEqualTo(row.usage().input());
    });
  }

  @Test
  void daysWeeksAndMonthsFollowTheTimeZoneAcrossTheEndOfSummerTime() {
    assertThat(inputs(autumn(UsageGrouping.DAY).zone(BERLIN)))
        .containsExactly(Map.entry("2026-10-25", 3000L), Map.entry("2026-10-26", 3000L),
            Map.entry("2026-11-01", 4000L), Map.entry("2026-11-02", 5000L));
    assertThat(inputs(autumn(UsageGrouping.DAY)))
        .containsExactly(Map.entry("2026-10-24", 1000L), Map.entry("2026-10-25", 5000L),
            Map.entry("2026-10-31", 4000L), Map.entry("2026-11-02", 5000L));
    assertThat(inputs(autumn(UsageGrouping.WEEK).zone(BERLIN)))
        .containsExactly(Map.entry("2026-W43", 3000L), Map.entry("2026-W44", 7000L), Map.entry("2026-W45", 5000L));
    assertThat(inputs(autumn(UsageGrouping.WEEK)))
        .containsExactly(Map.entry("2026-W43", 6000L), Map.entry("2026-W44", 4000L), Map.entry("2026-W45", 5000L));
    assertThat(inputs(autumn(UsageGrouping.MONTH).zone(BERLIN)))
        .containsExactly(Map.entry("2026-10", 6000L), Map.entry("2026-11", 9000L));
    assertThat(inputs(autumn(UsageGrouping.MONTH)))
        .containsExactly(Map.entry("2026-10", 10_000L), Map.entry("2026-11", 5000L));
    // the UTC answer from the stored per-day aggregates equals the per-response one
    assertThat(inputs(autumn(UsageGrouping.DAY).zone(ZoneId.of("Etc/GMT"))))
        .isEqualTo(inputs(autumn(UsageGrouping.DAY).zone(ZoneId.of("Africa/Abidjan"))));
  }

  @Test
  void filtersKeepResponsesSoEveryGroupingsTotalIsItsRows() {
    UsageQuery week = UsageQuery.of(UsageGrouping.MODEL).zone(BERLIN)
        .between(LocalDate.of(2026, 10, 26), LocalDate.of(2026, 11, 1));
    assertThat(inputs(week)).containsExactly(Map.entry(SONNET, 7000L));
    assertThat(report(week).total().usage().input()).isEqualTo(7000);
    assertThat(inputs(week.project("blog"))).isEmpty();
    assertThat(report(week.project("blog")).total().responses()).isZero();
    assertThat(inputs(week.provider(Provider.CODEX))).isEmpty();
    assertThat(inputs(autumn(UsageGrouping.DAY).zone(BERLIN).model(HAIKU).between(LocalDate.of(2026, 11, 2), null)))
        .containsExactly(Map.entry("2026-11-02", 5000L));
    assertThat(inputs(UsageQuery.of(UsageGrouping.PROJECT).project("shop"))).containsExactly(Map.entry("shop", 10_000L));
    assertThat(inputs(UsageQuery.of(UsageGrouping.MONTH).session("s2"))).containsExactly(Map.entry("2026-11", 5000L));
    // until is inclusive: the whole day in the zone
    assertThat(inputs(UsageQuery.of(UsageGrouping.DAY).zone(BERLIN).between(null, LocalDate.of(2026, 10, 25))))
        .containsExactly(Map.entry("2026-10-25", 3000L));
    UsageReport cost = report(week.model(SONNET));
    assertThat(cost.total().costUsd()).isCloseTo(7000 * 3 / 1e6, within(1e-12));
  }

  @Test
  void breakdownAndOrder() {
    UsageReport r = report(autumn(UsageGrouping.MONTH).zone(BERLIN).breakdown(true).descending(true));
    assertThat(r.rows()).extracting(UsageRow::key).containsExactly("2026-11", "2026-10");
    assertThat(r.breakdown().get("2026-11")).extracting(UsageRow::key, x -> x.usage().input())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(HAIKU, 5000L),
            org.assertj.core.groups.Tuple.tuple(SONNET, 4000L));
    assertThat(r.breakdown().get("2026-10")).extracting(UsageRow::key).containsExactly(SONNET);
  }

  @Test
  void blocksStartAtTheHourAndAResponseAtTheEndOrAfterAFiveHourGapStartsANewOne() {
    UsageReport r = report(UsageQuery.of(UsageGrouping.BLOCK).project("ops"));
    assertThat(r.blocks()).extracting(b -> b.start().toString(), b -> b.end().toString(), UsageBlock::responses,
        UsageBlock::tokens).containsExactly(
            org.assertj.core.groups.Tuple.tuple("2026-12-01T10:00:00Z", "2026-12-01T15:00:00Z", 2L, 300L),
            org.assertj.core.groups.Tuple.tuple("2026-12-01T15:00:00Z", "2026-12-01T20:00:00Z", 1L, 400L),
            org.assertj.core.groups.Tuple.tuple("2026-12-01T20:00:00Z", "2026-12-02T01:00:00Z", 2L, 6000L));
    assertThat(r.rows()).extracting(UsageRow::key).containsExactly("2026-12-01T10:00Z", "2026-12-01T15:00Z",
        "2026-12-01T20:00Z");
    assertThat(r.blocks().get(0).lastAt()).isEqualTo(Instant.parse("2026-12-01T14:59:59Z"));
    assertThat(r.blocks().get(2).models()).containsExactly(SONNET);

    Instant now = Instant.parse("2026-12-01T21:00:00Z");
    UsageBlock active = r.activeBlock(now).orElseThrow();
    assertThat(active.start()).isEqualTo(Instant.parse("2026-12-01T20:00:00Z"));
    UsageBlock.Burn burn = active.burn(now);
    assertThat(burn.elapsed()).isEqualTo(Duration.ofHours(1));
    assertThat(burn.remaining()).isEqualTo(Duration.ofHours(4));
    assertThat(burn.tokensPerMinute()).isCloseTo(100, within(1e-9)); // 6000 tokens over the 60 min since 20:00
    assertThat(burn.projectedTokens()).isEqualTo(6000 + 100 * 240);
    assertThat(burn.usdPerHour()).isCloseTo(6000 * 3 / 1e6, within(1e-12));
    assertThat(burn.projectedUsd()).isCloseTo(5 * 6000 * 3 / 1e6, within(1e-12));
    assertThat(r.activeBlock(Instant.parse("2026-12-02T01:00:00Z"))).isEmpty();

    // shown in the zone, cut in UTC hours; the dates filter the blocks' responses
    UsageReport berlin = report(UsageQuery.of(UsageGrouping.BLOCK).zone(BERLIN).project("ops")
        .between(LocalDate.of(2026, 12, 1), LocalDate.of(2026, 12, 1)));
    assertThat(berlin.rows()).extracting(UsageRow::key).containsExactly("2026-12-01T11:00+01:00",
        "2026-12-01T16:00+01:00", "2026-12-01T21:00+01:00");
  }

  @Test
  void isoWeekKeysAreTheFormattedWeekBasedYearAndWeek() {
    // every day of six years around week 53s and year edges, and years of other widths
    java.time.LocalDate d = java.time.LocalDate.of(2019, 12, 1);
    for (int i = 0; i < 6 * 366; i++, d = d.plusDays(1)) {
      assertThat(UsageReports.isoWeek(d)).isEqualTo(String.format(java.util.Locale.ROOT, "%d-W%02d",
          d.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR), d.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR)));
    }
    assertThat(UsageReports.isoWeek(java.time.LocalDate.of(2026, 12, 31))).isEqualTo("2026-W53");
    assertThat(UsageReports.isoWeek(java.time.LocalDate.of(2027, 1, 4))).isEqualTo("2027-W01");
  }
}
