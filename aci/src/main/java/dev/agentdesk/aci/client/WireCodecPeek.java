package dev.agentdesk.aci.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.WireCodec;

/** Best-effort look into a message that failed to decode, to find which call it answers. */
final class WireCodecPeek {
  private WireCodecPeek() {}

  static String callId(String text) {
    try {
      JsonNode n = WireCodec.parse(text);
      if (n.path("call_id").isTextual()) {
        return n.get("call_id").textValue();
      }
      if (n.path("cause").isTextual()) {
        return n.get("cause").textValue();
      }
    } catch (WireException e) {
      // Not even JSON: there is no call to blame.
    }
    return null;
  }
}
