package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Cutting responses into five-hour blocks whatever order they arrive in (a report reads them
 * session by session, in the table's order): the sort packs time and arrival index into numbers,
 * and falls back to comparing records when the times are too far apart to pack.
 */
class UsageBlocksTest {
  private static final TokenUsage ONE = new TokenUsage(1, 0, 0, 0);

  @Test
  void responsesInAnyOrderMakeTheBlocksOfTheirTimes() {
    List<Instant> times = new ArrayList<>(List.of(
        Instant.parse("2026-03-01T10:30:00Z"), Instant.parse("2026-03-01T10:30:00Z"),
        Instant.parse("2026-03-01T14:59:59.999Z"),
        // five hours after the block's start (10:00): a new block, at its own hour
        Instant.parse("2026-03-01T15:00:00Z"),
        // exactly five hours after the last response: a new block
        Instant.parse("2026-03-01T20:00:00Z"), Instant.parse("2026-03-01T20:20:00Z")));
    for (long seed = 1; seed <= 5; seed++) {
      List<Instant> shuffled = new ArrayList<>(times);
      Collections.shuffle(shuffled, new Random(seed));
      UsageBlocks b = new UsageBlocks();
      shuffled.forEach(t -> b.add(t, t, 1, ONE, 0.5, false, "m", 0.5, null));
      assertThat(b.blocks()).extracting(UsageBlock::start, UsageBlock::firstAt, UsageBlock::lastAt,
          UsageBlock::responses).as("seed %d", seed).containsExactly(
          org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-03-01T10:00:00Z"),
              Instant.parse("2026-03-01T10:30:00Z"), Instant.parse("2026-03-01T14:59:59.999Z"), 3L),
          org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-03-01T15:00:00Z"),
              Instant.parse("2026-03-01T15:00:00Z"), Instant.parse("2026-03-01T15:00:00Z"), 1L),
          org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-03-01T20:00:00Z"),
              Instant.parse("2026-03-01T20:00:00Z"), Instant.parse("2026-03-01T20:20:00Z"), 2L));
      assertThat(b.figures(b.blocks().get(0)).calculated).isEqualTo(1.5);
    }
  }

  @Test
  void timesTooFarApartToPackAreSortedAllTheSame() {
    // a damaged timestamp far in the past or future still sorts (into its own block)
    Instant ancient = Instant.parse("0001-01-01T00:00:00Z");
    Instant far = Instant.parse("+200000000-12-31T00:00:00Z");
    Instant now = Instant.parse("2026-03-01T10:30:00Z");
    UsageBlocks b = new UsageBlocks();
    for (Instant t : List.of(far, now, ancient, now)) {
      b.add(t, t, 1, ONE, 0, false, "m", 0, null);
    }
    assertThat(b.blocks()).extracting(UsageBlock::firstAt).containsExactly(ancient, now, far);
    assertThat(b.blocks()).extracting(UsageBlock::responses).containsExactly(1L, 2L, 1L);
  }

  @Test
  void anHoursSumsCutAsItsResponsesWouldAndTheLastTimeIsTheLatest() {
    UsageBlocks b = new UsageBlocks();
    // two sessions' hours: the one that starts first ends last
    b.add(Instant.parse("2026-03-01T10:05:00Z"), Instant.parse("2026-03-01T10:55:00Z"), 2, ONE, 1, false, "m", 1, null);
    b.add(Instant.parse("2026-03-01T10:10:00Z"), Instant.parse("2026-03-01T10:20:00Z"), 1, ONE, 1, false, "m", 1, null);
    b.add(Instant.parse("2026-03-01T14:10:00Z"), Instant.parse("2026-03-01T14:59:00Z"), 3, ONE, 1, false, "m", 1, null);
    b.add(Instant.parse("2026-03-01T15:00:00Z"), Instant.parse("2026-03-01T15:40:00Z"), 4, ONE, 1, false, "m", 1, null);
    assertThat(b.blocks()).extracting(UsageBlock::start, UsageBlock::firstAt, UsageBlock::lastAt,
        UsageBlock::responses).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-03-01T10:00:00Z"),
            Instant.parse("2026-03-01T10:05:00Z"), Instant.parse("2026-03-01T14:59:00Z"), 6L),
        org.assertj.core.groups.Tuple.tuple(Instant.parse("2026-03-01T15:00:00Z"),
            Instant.parse("2026-03-01T15:00:00Z"), Instant.parse("2026-03-01T15:40:00Z"), 4L));
  }
}
