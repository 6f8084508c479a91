package dev.agentdesk.aci.client;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.AciClientException.Reason;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.TargetKind;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.WireEnum;
import java.util.List;
import java.util.Set;

/**
 * The welcome as a gate: an action that uses a verb, target kind, image format or field the
 * runtime did not advertise is refused before it is sent ({@code NOT_ADVERTISED}) — an older
 * runtime would reject the unknown field, or worse, ignore it.
 */
final class Advertised {
  private Advertised() {}

  private static final Set<Verb> STRUCTURED_VERBS = Set.of(Verb.OBSERVE, Verb.INVOKE_ACTION, Verb.SET_VALUE);

  /** Refuses what the welcome does not advertise, before anything is sent. */
  static void require(Capabilities caps, Action a) {
    if (!caps.supportsVerb(a.verb())) {
      throw notAdvertised("verb " + a.verb().wire() + " is not among the runtime's verbs " + wires(caps.verbs()));
    }
    if (STRUCTURED_VERBS.contains(a.verb()) && !caps.supportsStructuredObservation()) {
      throw notAdvertised("verb " + a.verb().wire() + " needs capabilities.structured_observation");
    }
    for (Target t : new Target[] {a.target(), a.to()}) {
      if (t != null && !caps.supportsTarget(t.kind())) {
        throw notAdvertised("target kind " + t.kind().wire() + " is not among the runtime's targets "
            + wires(caps.targets()));
      }
      if (t != null && t.kind() == TargetKind.ELEMENT_REF && !caps.supportsStructuredObservation()) {
        throw notAdvertised("element_ref targets need capabilities.structured_observation");
      }
    }
    if (a.observe() != null && !caps.supportsObserveAfterAct()) {
      throw notAdvertised("observe needs capabilities.observe_after_act");
    }
    if (a.ifNoneMatch() != null && !caps.supportsFrameDedup()) {
      throw notAdvertised("if_none_match needs capabilities.frame_dedup");
    }
    for (ImageFormat f : new ImageFormat[] {a.format(), a.observe() == null ? null : a.observe().format()}) {
      if (f != null && !caps.imageFormatsOrDefault().contains(f)) {
        throw notAdvertised("image format " + f.wire() + " is not among the runtime's image_formats "
            + wires(caps.imageFormatsOrDefault()));
      }
    }
  }

  private static String wires(List<? extends WireEnum> values) {
    return values.stream().map(WireEnum::wire).toList().toString();
  }

  private static AciClientException notAdvertised(String message) {
    return new AciClientException(Reason.NOT_ADVERTISED, "refusing to send: " + message);
  }
}
