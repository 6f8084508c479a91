package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.UsageLimitRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Codex's {@code rate_limits} on real rollouts of the shared corpus: every shape becomes {@link
 * UsageLimitRecord}s, and the store keeps each window's latest report (SQLite and PostgreSQL).
 */
@ExtendWith(PostgresExtension.class)
class CodexRateLimitsTest {
  private static Path peer(String relative) {
    return dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts-peer/home/.codex/sessions/" + relative);
  }

  private static List<UsageLimitRecord> limits(Path file) {
    return Transcripts.parse(Provider.CODEX, file).records().stream().filter(UsageLimitRecord.class::isInstance)
        .map(UsageLimitRecord.class::cast).toList();
  }

  @Test
  void resetsAtInEpochSecondsOfCodex0_1xx() {
    // 0.104 (limit_id "codex"): the last token_count says 25 % of 5 h, 20 % of the week
    List<UsageLimitRecord> l = limits(peer("2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl"));
    assertThat(l).hasSizeGreaterThan(100).allSatisfy(r -> assertThat(r.window()).isIn("primary", "secondary"));
    assertThat(l.subList(l.size() - 2, l.size())).extracting(UsageLimitRecord::observedAt, UsageLimitRecord::window,
        UsageLimitRecord::usedPercent, UsageLimitRecord::windowMinutes, UsageLimitRecord::resetsAt).containsExactly(
            tuple("2026-02-24T12:09:44.233Z", "primary", 25.0, 300L, "2026-02-24T13:16:59.000Z"),
            tuple("2026-02-24T12:09:44.233Z", "secondary", 20.0, 10080L, "2026-03-01T09:01:47.000Z"));
  }

  @Test
  void nullWindowsAndNullRateLimitsGiveNothing() {
    // 0.77 writes "primary": null, "secondary": null; 0.129 writes "rate_limits": null
    assertThat(limits(peer("2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"))).isEmpty();
    assertThat(limits(peer("2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"))).isEmpty();
  }

  @Test
  void aTokenCountWithoutUsageStillCarriesTheWindows() {
    // agent-sessions' 0.53 rollout: the second token_count has "info": null and the new figures
    Path file = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts/agent-sessions/codex_053_rate_limit.jsonl");
    assertThat(limits(file)).extracting(UsageLimitRecord::observedAt, UsageLimitRecord::window,
        UsageLimitRecord::usedPercent, UsageLimitRecord::resetsAt).containsExactly(
            tuple("2025-10-31T17:00:05.000Z", "primary", 0.0, "2025-10-31T22:36:58.000Z"),
            tuple("2025-10-31T17:00:05.000Z", "secondary", 7.0, "2025-11-06T19:45:53.000Z"),
            tuple("2025-10-31T17:00:10.000Z", "primary", 1.0, "2025-10-31T22:37:03.000Z"),
            tuple("2025-10-31T17:00:10.000Z", "secondary", 7.0, "2025-11-06T19:45:53.000Z"));
  }

  @Test
  void olderShapesWithTheirTimestampPutBack(@TempDir Path dir) throws IOException {
    // agent-sessions' stage0 rollout has the two older shapes with "[trimmed for fixture]" timestamps:
    // a line without a time reports nothing; with one, resets_in_seconds counts from it, and the
    // flat shape (no reset) gives how full and how long
    Path small = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/codex/small.jsonl");
    assertThat(limits(small)).extracting(UsageLimitRecord::window).containsExactly("primary");
    List<String> lines = Files.readAllLines(small).stream()
        .filter(s -> s.contains("resets_in_seconds") || s.contains("primary_used_percent")).toList();
    assertThat(lines).hasSize(2);
    String meta = "{\"timestamp\":\"2025-09-01T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":"
        + "\"0199a000-0000-7000-8000-000000000001\",\"cwd\":\"/tmp\"}}";
    String inSeconds = lines.get(0).replace("[trimmed for fixture]", "2025-09-01T10:00:00.000Z")
        .replace("\"used_percent\":0,\"window_minutes\":0,\"resets_in_seconds\":0},\"secondary\"",
            "\"used_percent\":40,\"window_minutes\":300,\"resets_in_seconds\":5400},\"secondary\"");
    String flat = lines.get(1).replace("[trimmed for fixture]", "2025-09-01T10:05:00.000Z")
        .replace("\"primary_used_percent\":0", "\"primary_used_percent\":41")
        .replace("\"primary_window_minutes\":0", "\"primary_window_minutes\":300");
    Path file = dir.resolve("rollout-2025-09-01T10-00-00-0199a000-0000-7000-8000-000000000001.jsonl");
    Files.write(file, List.of(meta, inSeconds, flat));
    assertThat(limits(file)).extracting(UsageLimitRecord::observedAt, UsageLimitRecord::window,
        UsageLimitRecord::usedPercent, UsageLimitRecord::windowMinutes, UsageLimitRecord::resetsAt).containsExactly(
            tuple("2025-09-01T10:00:00.000Z", "primary", 40.0, 300L, "2025-09-01T11:30:00.000Z"),
            tuple("2025-09-01T10:00:00.000Z", "secondary", 0.0, null, null),
            tuple("2025-09-01T10:05:00.000Z", "primary", 41.0, 300L, null),
            tuple("2025-09-01T10:05:00.000Z", "secondary", 0.0, null, null));
  }

  @Test
  void theSqliteStoreKeepsEachWindowsLatestReport(@TempDir Path dir) {
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      roundTrip(h);
    }
    // and after reopening
    try (TranscriptHistory h = TranscriptHistory.open(dir.resolve("h.db"))) {
      assertThat(h.limits()).hasSize(3);
    }
  }

  @Test
  void thePostgresStoreKeepsEachWindowsLatestReport(PostgresServer pg) throws Exception {
    try (TranscriptHistory h = TranscriptHistory.openUrl(pg.createSchema())) {
      roundTrip(h);
    }
  }

  private static void roundTrip(TranscriptHistory h) {
    Path home = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts-peer/home");
    h.importFrom(List.of(new Importer.Root(Provider.CODEX, home.resolve(".codex/sessions"))), ImportListener.NONE);
    // the newest report of the 13 rollouts (2026-05-12 10:01:02) wins, whatever order files came in
    assertThat(h.limits()).extracting(UsageLimit::provider, UsageLimit::window, UsageLimit::usedPercent,
        UsageLimit::windowMinutes, UsageLimit::resetsAt, UsageLimit::observedAt, UsageLimit::origin).containsExactly(
            tuple("codex", "primary", 12.0, 300L, Instant.ofEpochSecond(1747150400),
                Instant.parse("2026-05-12T10:01:02.150Z"), UsageLimit.Origin.TRANSCRIPT),
            tuple("codex", "secondary", 5.0, 10080L, Instant.ofEpochSecond(1747800000),
                Instant.parse("2026-05-12T10:01:02.150Z"), UsageLimit.Origin.TRANSCRIPT));
    assertThat(h.limits().get(0).sessionId()).isEqualTo("a1b2c3d4-e5f6-7890-abcd-ef1234567890");
    // an older report (a terminal's, earlier) does not replace it; a newer one does, window by window
    Instant older = Instant.parse("2026-05-12T09:00:00Z");
    Instant newer = Instant.parse("2026-05-12T11:00:00Z");
    h.recordLimits(List.of(
        new UsageLimit("codex", "primary", 99.0, null, null, older, null, UsageLimit.Origin.TERMINAL),
        new UsageLimit("codex", "secondary", 6.0, 10080L, Instant.parse("2026-05-19T00:00:00Z"), newer, null,
            UsageLimit.Origin.TERMINAL),
        new UsageLimit("claude", "weekly", 85.0, null, null, newer, null, UsageLimit.Origin.TERMINAL)));
    assertThat(h.limits()).extracting(UsageLimit::provider, UsageLimit::window, UsageLimit::usedPercent,
        UsageLimit::origin).containsExactly(
            tuple("claude", "weekly", 85.0, UsageLimit.Origin.TERMINAL),
            tuple("codex", "primary", 12.0, UsageLimit.Origin.TRANSCRIPT),
            tuple("codex", "secondary", 6.0, UsageLimit.Origin.TERMINAL));
    // importing again (nothing new) changes nothing
    h.importFrom(List.of(new Importer.Root(Provider.CODEX, home.resolve(".codex/sessions"))), ImportListener.NONE);
    assertThat(h.limits()).extracting(UsageLimit::usedPercent).containsExactly(85.0, 12.0, 6.0);
  }
}
