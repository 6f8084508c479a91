package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A five-hour usage window, as Claude's work. The rule ({@link UsageBlocks}): a block starts at
 * its first response's time floored to the hour (UTC) and ends five hours later; a response belongs
 * to the open block when it is before the block's end <em>and</em> less than five hours after the
 * previous response; otherwise (at the end or later, or after a gap of five hours or more) it starts
 * a new block. Only blocks with responses are listed (no gap rows).
 *
 * @param start the floored hour of the first response
 * @param end {@code start} + 5 h
 * @param firstAt the first response's time
 * @param lastAt the last response's time
 * @param models the models of the block's responses, sorted
 */
public record UsageBlock(Instant start, Instant end, Instant firstAt, Instant lastAt, long responses,
    TokenUsage usage, double costUsd, long unpricedResponses, List<String> models) {
  /** How long a block lasts. */
  public static final Duration LENGTH = Duration.ofHours(5);

  public UsageBlock {
    models = List.copyOf(models);
  }

  /** Every token of the block: input, output, cache read and cache creation. */
  public long tokens() {
    return usage.input() + usage.output() + usage.cacheRead() + usage.cacheCreation();
  }

  /** Whether {@code now} is inside the block ({@code start <= now < end}). */
  public boolean activeAt(Instant now) {
    return !now.isBefore(start) && now.isBefore(end);
  }

  /**
   * Where an active block stands at {@code now}: elapsed and remaining time, burn rates over the
   * time since its first response (at least one minute), and the tokens and cost at its end if the
   * rate holds. Null when the block is not active at {@code now}.
   */
  public Burn burn(Instant now) {
    if (!activeAt(now)) {
      return null;
    }
    Duration elapsed = Duration.between(start, now);
    Duration remaining = Duration.between(now, end);
    double minutes = Math.max(1.0, Duration.between(firstAt, now).toMillis() / 60_000.0);
    double tokensPerMinute = tokens() / minutes;
    double usdPerHour = costUsd / minutes * 60;
    double left = remaining.toMillis() / 60_000.0;
    return new Burn(elapsed, remaining, tokensPerMinute, usdPerHour, tokens() + Math.round(tokensPerMinute * left),
        costUsd + usdPerHour * left / 60);
  }

  /** An active block's progress and projection (see {@link #burn}). */
  public record Burn(Duration elapsed, Duration remaining, double tokensPerMinute, double usdPerHour,
      long projectedTokens, double projectedUsd) {}
}
