package dev.agentdesk.aci.wire;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The typed action vocabulary (schema {@code Verb}). {@link #isMutating()} is the schema's
 * {@code MutatingVerb} set: the verbs that change guest state and therefore admit {@code observe}.
 */
public enum Verb implements WireEnum {
  CLICK("click", true),
  DOUBLE_CLICK("double_click", true),
  RIGHT_CLICK("right_click", true),
  MOVE("move", true),
  DRAG("drag", true),
  MOUSE_DOWN("mouse_down", true),
  MOUSE_UP("mouse_up", true),
  SCROLL("scroll", true),
  TYPE_TEXT("type_text", true),
  KEY("key", true),
  SCREENSHOT("screenshot", false),
  START_SCREENCAST("start_screencast", false),
  STOP_SCREENCAST("stop_screencast", false),
  WAIT("wait", false),
  OBSERVE("observe", false),
  INVOKE_ACTION("invoke_action", true),
  SET_VALUE("set_value", true),
  EXEC("exec", false),
  CLIPBOARD_GET("clipboard_get", false),
  CLIPBOARD_SET("clipboard_set", true),
  LAUNCH_APP("launch_app", true),
  ACTIVATE_WINDOW("activate_window", true);

  private static final Set<Verb> MUTATING;

  static {
    EnumSet<Verb> m = EnumSet.noneOf(Verb.class);
    for (Verb v : values()) {
      if (v.mutating) {
        m.add(v);
      }
    }
    MUTATING = Collections.unmodifiableSet(m);
  }

  private final String wire;
  private final boolean mutating;

  Verb(String wire, boolean mutating) {
    this.wire = wire;
    this.mutating = mutating;
  }

  @Override
  public String wire() {
    return wire;
  }

  /** Whether this verb is in the schema's {@code MutatingVerb} set (admits {@code observe}). */
  public boolean isMutating() {
    return mutating;
  }

  /** The schema's {@code MutatingVerb} set, unmodifiable. */
  public static Set<Verb> mutatingVerbs() {
    return MUTATING;
  }

  /** The verb spelled {@code wire}, or null. */
  public static Verb fromWire(String wire) {
    return WireEnum.lookup(Verb.class, wire);
  }
}
