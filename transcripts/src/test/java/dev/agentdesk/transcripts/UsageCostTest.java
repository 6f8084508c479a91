package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage aggregates kept at import time against a scan of every stored message (the reference),
 * through appends, forks and rewrites; and cost from them, figure by figure.
 */
class UsageCostTest {
  static final PriceTable PRICES = PriceTable.bundled();
  static final String SONNET = "claude-sonnet-4-5-20250929";

  @TempDir
  Path dir;
  Path project;
  Path db;

  static String assistant(String uuid, String msgId, String ts, String model, String usage) {
    return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + ts + "\",\"cwd\":\"/home/dev/shop\","
        + "\"requestId\":\"req-" + msgId + "\",\"message\":{\"id\":\"" + msgId + "\",\"role\":\"assistant\",\"model\":\""
        + model + "\",\"content\":[{\"type\":\"text\",\"text\":\"ok " + uuid + "\"}],\"usage\":" + usage + "}}\n";
  }

  static String tokens(long in, long out, long read, long write, long write1h) {
    return "{\"input_tokens\":" + in + ",\"output_tokens\":" + out + ",\"cache_read_input_tokens\":" + read
        + ",\"cache_creation_input_tokens\":" + write + ",\"cache_creation\":{\"ephemeral_5m_input_tokens\":"
        + (write - write1h) + ",\"ephemeral_1h_input_tokens\":" + write1h + "}}";
  }

  @BeforeEach
  void setUp() throws IOException {
    project = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    db = dir.resolve("h.db");
    Files.writeString(project.resolve("s1.jsonl"),
        assistant("a1", "m1", "2026-03-01T10:00:00Z", SONNET, tokens(1000, 500, 10_000, 2000, 1000))
        // one response written as two lines: counted once, with the larger output
        + assistant("a2", "m2", "2026-03-01T10:01:00Z", SONNET, tokens(10, 100, 0, 0, 0))
        + assistant("a3", "m2", "2026-03-01T10:01:01Z", SONNET, tokens(10, 300, 0, 0, 0))
        // a long context: the tier price for every token of the response
        + assistant("a4", "m3", "2026-03-02T09:00:00Z", SONNET, tokens(250_000, 1000, 0, 0, 0))
        + assistant("a5", "m4", "2026-03-02T09:05:00Z", "mystery-model-1", tokens(100, 10, 0, 0, 0))
        + assistant("a6", "m5", "2026-03-02T09:06:00Z", SONNET, tokens(-5, 10, 0, 0, 0))
        + assistant("a7", "m6", "2026-03-02T09:07:00Z", "<synthetic>", tokens(0, 0, 0, 0, 0)));
  }

  private TranscriptHistory importAll(TranscriptHistory h) {
    h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, dir.resolve("projects")),
        new Importer.Root(Provider.CODEX, Fixtures.codexDay())), ImportListener.NONE);
    return h;
  }

  private static void aggregatesMatchTheScan(TranscriptHistory h) {
    for (UsageGrouping by : List.of(UsageGrouping.DAY, UsageGrouping.SESSION, UsageGrouping.MODEL,
        UsageGrouping.PROVIDER)) {
      assertThat(h.usage(by)).as("usage by %s", by).isEqualTo(h.usageByScan(by)).isNotEmpty();
    }
  }

  static final double A1 = (1000 * 3 + 500 * 15 + 10_000 * 0.3 + 1000 * 3.75 + 1000 * 6) / 1e6;
  static final double A3 = (10 * 3 + 300 * 15) / 1e6;
  static final double A4 = (250_000 * 6 + 1000 * 22.5) / 1e6;
  /** The Codex fixture (gpt-5.2-codex, priced as gpt-5.2): 7,000 input, 700 output, 14,000 cached input. */
  static final double CODEX = (7000 * 1.75 + 700 * 14 + 14_000 * 0.175) / 1e6;

  @Test
  void costIsPricedPerResponseAtItsTierAndEachResponseOnce() {
    try (TranscriptHistory h = importAll(TranscriptHistory.open(db))) {
      aggregatesMatchTheScan(h);
      UsageReport byModel = h.usageReport(UsageGrouping.MODEL, PRICES, null);
      UsageRow sonnet = byModel.rows().stream().filter(r -> r.key().equals(SONNET)).findFirst().orElseThrow();
      assertThat(sonnet.responses()).isEqualTo(3);
      assertThat(sonnet.usage()).isEqualTo(new TokenUsage(251_010, 1800, 10_000, 2000, 1000));
      assertThat(sonnet.costUsd()).isCloseTo(A1 + A3 + A4, within(1e-9));
      UsageRow codex = byModel.rows().stream().filter(r -> r.key().equals("gpt-5.2-codex")).findFirst().orElseThrow();
      assertThat(codex.usage()).isEqualTo(new TokenUsage(7000, 700, 14_000, 0));
      assertThat(codex.costUsd()).isCloseTo(CODEX, within(1e-9));

      UsageRow mystery = byModel.rows().stream().filter(r -> r.key().equals("mystery-model-1")).findFirst()
          .orElseThrow();
      assertThat(mystery.hasCost()).isFalse();
      assertThat(mystery.unpricedModels()).containsExactly("mystery-model-1");
      assertThat(byModel.total().unpricedResponses()).isEqualTo(1);
      assertThat(byModel.total().costUsd()).isCloseTo(A1 + A3 + A4 + CODEX, within(1e-9));
      assertThat(byModel.rejectedResponses()).isEqualTo(1);
      assertThat(byModel.warnings()).anySatisfy(w -> assertThat(w).startsWith("no price for mystery-model-1 (1 responses)"))
          .anySatisfy(w -> assertThat(w).startsWith("1 responses with negative or absurd token counts were left out"
              + " (session s1)"))
          .noneSatisfy(w -> assertThat(w).contains("older than"));

      UsageReport byDay = h.usageReport(UsageGrouping.DAY, PRICES, null);
      assertThat(byDay.rows()).extracting(UsageRow::key).containsExactly("2026-01-06", "2026-03-01", "2026-03-02");
      assertThat(byDay.rows().get(1).costUsd()).isCloseTo(A1 + A3, within(1e-9));
      assertThat(byDay.rows().get(2).costUsd()).isCloseTo(A4, within(1e-9));
      assertThat(byDay.rows().get(2).unpricedResponses()).isEqualTo(1);
      assertThat(h.usageReport(UsageGrouping.PROJECT, PRICES, null).rows()).extracting(UsageRow::key)
          .containsExactly("api", "api-fork", "shop");
      assertThat(h.usageReport(UsageGrouping.PROVIDER, PRICES, null).rows()).extracting(UsageRow::key)
          .containsExactly("claude", "codex");

      UsageReport responses = h.usageReport(UsageGrouping.RESPONSE, PRICES, "s1");
      assertThat(responses.rows()).extracting(UsageRow::key).containsExactly("s1 a1", "s1 a3", "s1 a4", "s1 a5", "s1 a7");
      assertThat(responses.rows().get(0).costUsd()).isCloseTo(A1, within(1e-12));
      assertThat(responses.total().costUsd()).isCloseTo(A1 + A3 + A4, within(1e-9));
      assertThat(h.usageReport(UsageGrouping.SESSION, PRICES, "s1").total().costUsd())
          .isCloseTo(A1 + A3 + A4, within(1e-9));
    }
  }

  @Test
  void overridesWithOtherTierStartsArePricedFromEveryResponseExactly() {
    PriceTable odd = PRICES.withOverrides(PriceTable.parseOverrides(("{\"models\": {\"claude-sonnet-4-5*\": {"
        + "\"input_mtok\": {\"base\": 1, \"tiers\": [{\"start\": 5000, \"price\": 2}]}, \"output_mtok\": 10}}}")
        .getBytes(StandardCharsets.UTF_8), "o"));
    try (TranscriptHistory h = importAll(TranscriptHistory.open(db))) {
      UsageRow sonnet = h.usageReport(UsageGrouping.MODEL, odd, null).rows().stream()
          .filter(r -> r.key().equals(SONNET)).findFirst().orElseThrow();
      // a1: context 13,000 > 5,000 → input, cache read and cache write at the input tier (2); a3: base; a4: tier
      double a1 = (1000 * 2 + 500 * 10 + 10_000 * 2 + 2000 * 2) / 1e6;
      double a3 = (10 * 1 + 300 * 10) / 1e6;
      double a4 = (250_000 * 2 + 1000 * 10) / 1e6;
      assertThat(sonnet.costUsd()).isCloseTo(a1 + a3 + a4, within(1e-9));
    }
  }

  @Test
  void aggregatesFollowAppendsForksAndRewrites() throws IOException {
    Path s1 = project.resolve("s1.jsonl");
    try (TranscriptHistory h = importAll(TranscriptHistory.open(db))) {
      aggregatesMatchTheScan(h);
      // an append with a later, larger copy of response m1: the winner changes
      Files.writeString(s1, assistant("a8", "m1", "2026-03-03T08:00:00Z", SONNET, tokens(1000, 900, 10_000, 2000, 1000)),
          StandardOpenOption.APPEND);
      importAll(h);
      aggregatesMatchTheScan(h);
      // a fork copies the session's responses into another file: counted once
      Files.copy(s1, project.resolve("s2.jsonl"));
      importAll(h);
      aggregatesMatchTheScan(h);
      assertThat(h.usageReport(UsageGrouping.SESSION, PRICES, null).rows()).extracting(UsageRow::key)
          .contains("s1").doesNotContain("s2");
      // the original is rewritten without its responses: the fork's copies count now
      Files.writeString(s1, assistant("b1", "n1", "2026-03-04T08:00:00Z", SONNET, tokens(1, 2, 0, 0, 0)));
      importAll(h);
      aggregatesMatchTheScan(h);
      assertThat(h.usageReport(UsageGrouping.SESSION, PRICES, null).rows()).extracting(UsageRow::key)
          .contains("s1", "s2");
      assertThat(h.usage(UsageGrouping.SESSION).stream().filter(r -> r.key().equals("s1")).findFirst().orElseThrow()
          .responses()).isEqualTo(1);
    }
    // reopening reads the same aggregates
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      aggregatesMatchTheScan(h);
    }
  }

  @Test
  void aPriceTableOlderThanTheNewestUsageIsAWarning() throws IOException {
    Files.writeString(project.resolve("s1.jsonl"),
        assistant("z1", "z1", "2026-11-30T10:00:00Z", SONNET, tokens(1, 1, 0, 0, 0)), StandardOpenOption.APPEND);
    try (TranscriptHistory h = importAll(TranscriptHistory.open(db))) {
      UsageReport r = h.usageReport(UsageGrouping.DAY, PRICES, null);
      assertThat(r.newestDay()).isEqualTo("2026-11-30");
      assertThat(r.warnings()).anySatisfy(w -> assertThat(w).startsWith("the price table (")
          .contains("published 2026-09-23) is older than the newest usage (2026-11-30)"));
      assertThat(r.rows()).hasSize(4); // the rest is still reported
    }
  }
}
