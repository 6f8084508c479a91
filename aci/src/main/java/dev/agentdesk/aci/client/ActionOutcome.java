package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.Action;

/**
 * How one action of a batch ended: {@code reply} is set when it succeeded, {@code error} (the
 * runtime's or the client's words) when it failed; skipped actions have neither.
 */
public record ActionOutcome(Action action, Status status, ActionReply reply, String error) {
  public enum Status { OK, FAILED, SKIPPED }

  public boolean ok() {
    return status == Status.OK;
  }
}
