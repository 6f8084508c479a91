package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Result;

/** What a successful action was answered with; the shape depends on the verb. */
public sealed interface ActionReply permits ActionReply.Acked, ActionReply.Observed, ActionReply.Returned {
  /** Most verbs: an ack, plus the follow-up observation when the action asked to {@code observe}. */
  record Acked(Ack ack, ObservationMsg followUp) implements ActionReply {}

  /** {@code screenshot} and {@code observe}. */
  record Observed(ObservationMsg observation) implements ActionReply {}

  /** Buffered {@code exec} and {@code clipboard_get}. */
  record Returned(Result result) implements ActionReply {}
}
