package dev.agentdesk.transcripts.records;

import java.util.List;
import java.util.Objects;

/**
 * What the agent itself recorded that a session cost, as it last wrote it (the figures are
 * cumulative: a later record replaces an earlier one, never adds to it). Shown beside agentdesk's
 * own cost, which is calculated from the tokens with its price table; the two differ when the agent
 * priced differently or counted calls that wrote no message (a title generator, for one).
 *
 * @param totalUsd the session's cost in US dollars
 * @param apiDurationMs time spent in API calls, retries included (null when not recorded)
 * @param apiDurationWithoutRetriesMs the same without the time of retried calls (null when not recorded)
 * @param wallDurationMs the session's wall-clock time (null when not recorded)
 * @param partial the agent said some model's cost was unknown to it, so {@code totalUsd} is a lower bound
 * @param models the cost and tokens per model, in the agent's order
 */
public record RecordedCost(double totalUsd, Long apiDurationMs, Long apiDurationWithoutRetriesMs, Long wallDurationMs,
    boolean partial, List<ModelCost> models) {

  public RecordedCost {
    models = List.copyOf(models);
  }

  /** One model's share; {@code costUsd} is null when the agent wrote none. */
  public record ModelCost(String model, Double costUsd, long input, long output, long cacheRead, long cacheCreation) {
    public ModelCost {
      Objects.requireNonNull(model, "model");
    }
  }

  /** Time lost to retried API calls, or null when either duration is not recorded. */
  public Long retryMs() {
    return apiDurationMs == null || apiDurationWithoutRetriesMs == null ? null
        : Math.max(0, apiDurationMs - apiDurationWithoutRetriesMs);
  }
}
