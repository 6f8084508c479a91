package dev.agentdesk.aci.client;

import java.util.List;

/** The outcome of every action of a batch, in order; {@code batchId} may be null. */
public record BatchResult(String batchId, List<ActionOutcome> outcomes) {
  public BatchResult {
    outcomes = List.copyOf(outcomes);
  }

  public boolean allOk() {
    return outcomes.stream().allMatch(ActionOutcome::ok);
  }
}
