package dev.agentdesk.aci.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.atspi.AtspiWire;
import dev.agentdesk.aci.runtime.atspi.ObserveRequest;
import dev.agentdesk.aci.runtime.atspi.ScreenPoint;
import dev.agentdesk.aci.runtime.atspi.StructuredObserver;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.Target;

/**
 * The structured verbs of one session — {@code observe}, {@code invoke_action}, {@code set_value}
 * — and its {@code element_ref} targets, over the AT-SPI engine
 * ({@code dev.agentdesk.aci.runtime.atspi}). Engine failures are
 * {@link dev.agentdesk.aci.runtime.AciRuntimeException}s whose message is the wire text.
 */
final class StructuredActions implements AutoCloseable {
  private final AtspiEngine engine;
  private StructuredObserver observer;

  StructuredActions(AtspiEngine engine) {
    this.engine = engine;
  }

  /**
   * The session's observer, opened on first use so that sessions which never use a structured
   * verb do not load the D-Bus client at all (a cold load can take longer than the handshake).
   */
  private synchronized StructuredObserver observer() {
    if (observer == null) {
      observer = engine.openSession();
    }
    return observer;
  }

  /** The reference-worded request error of a structured verb, or null when none applies. */
  static String referenceError(JsonNode a) {
    String verb = a.path("verb").asText();
    switch (verb) {
      case "observe" -> {
        if (a.path("structured").isBoolean() && !a.get("structured").asBoolean()) {
          return "observe structured:false is the pixel path \u2014 use `screenshot`";
        }
      }
      case "invoke_action", "set_value" -> {
        JsonNode t = a.path("target");
        if (!t.isObject() || !"element_ref".equals(t.path("kind").asText())) {
          return verb + " requires an element_ref target";
        }
        if (verb.equals("set_value") && !a.has("text")) {
          return "set_value requires `text` (the new value)";
        }
      }
      default -> {
        // not a structured verb
      }
    }
    return null;
  }

  AciMessage run(String callId, Action a) {
    switch (a.verb()) {
      case OBSERVE -> {
        Long settle = a.settleMs();
        Integer settleMs = settle == null ? null : (int) Math.min(settle, Integer.MAX_VALUE);
        return AtspiWire.observation(callId,
            observer().observe(ObserveRequest.fromWire(a.structured(), a.diff(), settleMs)));
      }
      case INVOKE_ACTION -> observer().invokeAction(ref(a.target()), a.text());
      case SET_VALUE -> observer().setValue(ref(a.target()), a.text());
      default -> throw new IllegalStateException("not a structured verb: " + a.verb());
    }
    return Ack.ok(callId);
  }

  /** Where a pointer verb aimed at {@code ref} goes: the element's centre, clipped to the screen. */
  int[] centre(String ref, Rect screen) {
    ScreenPoint p = observer().resolveCenter(ref, screen.w(), screen.h());
    return new int[] {p.x(), p.y()};
  }

  private static String ref(Target t) {
    return ((Target.ElementRef) t).ref();
  }

  @Override
  public synchronized void close() {
    if (observer != null) {
      observer.close();
    }
  }
}
