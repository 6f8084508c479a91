package dev.agentdesk.aci.wire;

import java.util.List;

/**
 * Client-side batch of actions run serially (schema {@code ActionBatch}); never a wire message —
 * each action goes out as its own {@code action} frame. {@code batchId} and {@code stopOnError}
 * may be null (absent); absent stop_on_error means true.
 */
public record ActionBatch(String batchId, Boolean stopOnError, List<Action> actions) {
  public ActionBatch {
    actions = Check.nonEmptyList(Check.required(actions, "actions"), "actions");
  }

  public static ActionBatch of(List<Action> actions) {
    return new ActionBatch(null, null, actions);
  }

  /** Whether to halt on the first failing action (the schema's default is true). */
  public boolean stopOnErrorOrDefault() {
    return stopOnError == null || stopOnError;
  }
}
