package dev.agentdesk.aci.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.wire.Verb;
import java.util.Set;

/**
 * Checks run on the raw JSON of an action before the strict decoder, so that the failures the
 * reference runtime words in its own way get the same words here (clients match on them). What
 * this class does not recognise falls through to the decoder and is answered {@code bad action:}.
 */
final class RequestChecks {
  private static final Set<String> BUTTONS = Set.of("left", "middle", "right");
  private static final Set<String> POINTER_VERBS = Set.of("click", "double_click", "right_click", "move", "scroll",
      "drag");

  private RequestChecks() {}

  /** The reference-worded error for this action, or null when none applies. */
  static String referenceError(JsonNode a) {
    String verb = a.path("verb").asText();
    if (!a.path("verb").isTextual()) {
      return null;
    }
    if (a.has("observe") && Verb.fromWire(verb) != null && !Verb.fromWire(verb).isMutating()) {
      return "observe is not supported on verb \"" + verb + "\"";
    }
    if (a.has("observe") && a.get("observe").isObject()) {
      JsonNode o = a.get("observe");
      if (o.has("scope") && !validScope(o.get("scope"))) {
        return "invalid observe scope: " + text(o.get("scope"));
      }
      if (o.has("format") && !validFormat(o.get("format"))) {
        return "unsupported image format: " + quoted(o.get("format")) + " (expected png or jpeg)";
      }
      if (o.has("quality") && !validQuality(o.get("quality"))) {
        return "observe quality out of range 1-100: " + text(o.get("quality"));
      }
    }
    switch (verb) {
      case "screenshot", "start_screencast" -> {
        if (a.has("scope") && !validScope(a.get("scope"))) {
          return "invalid capture scope: " + text(a.get("scope"));
        }
        if (a.has("format") && !validFormat(a.get("format"))) {
          return "unsupported image format: " + quoted(a.get("format")) + " (expected png or jpeg)";
        }
        if (a.has("quality") && !validQuality(a.get("quality"))) {
          return "quality out of range 1-100: " + text(a.get("quality"));
        }
      }
      case "type_text" -> {
        if (!a.has("text")) {
          return "type_text requires `text`";
        }
      }
      case "key" -> {
        if (!a.has("keys")) {
          return "key requires `keys`";
        }
      }
      case "drag" -> {
        if (a.has("target") && !a.has("to")) {
          return "drag requires a `to` target";
        }
      }
      case "launch_app" -> {
        if (!a.has("app") || (a.get("app").isTextual() && a.get("app").asText().isEmpty())) {
          return "launch_app requires a non-empty `app`";
        }
      }
      case "activate_window" -> {
        if (!a.has("window_id") && !a.has("app")) {
          return "activate_window requires `window_id` or `app`";
        }
      }
      case "exec" -> {
        return execError(a);
      }
      case "observe", "invoke_action", "set_value" -> {
        String structured = StructuredActions.referenceError(a);
        if (structured != null) {
          return structured;
        }
      }
      default -> {
        // no verb-specific wording
      }
    }
    if (POINTER_VERBS.contains(verb) && !a.has("target")) {
      return "action requires a target";
    }
    if (a.has("button") && a.get("button").isTextual() && !BUTTONS.contains(a.get("button").asText())) {
      return "unknown pointer button: \"" + a.get("button").asText() + "\" (expected left, middle, or right)";
    }
    for (String field : new String[] {"target", "to"}) {
      JsonNode t = a.path(field);
      if ("point_norm".equals(t.path("kind").asText()) && t.path("x").isNumber() && t.path("y").isNumber()) {
        double x = t.get("x").asDouble();
        double y = t.get("y").asDouble();
        if (x < 0 || x > 1 || y < 0 || y > 1) {
          return "point_norm out of range: (" + Targets.num(x) + ", " + Targets.num(y) + ") — must be within [0, 1]";
        }
      }
    }
    return null;
  }

  private static String execError(JsonNode a) {
    if (a.path("pty").asBoolean(false) && a.get("pty").isBoolean()) {
      return "pty is reserved (not supported in v0): exec runs without a terminal; use argv or shell";
    }
    boolean argv = a.has("argv");
    boolean shell = a.has("shell");
    if (argv && shell) {
      return "exec takes exactly one of `argv` or `shell`, not both (argv runs directly, shell runs /bin/sh -c)";
    }
    if (!argv && !shell) {
      return "exec requires `argv` (default form) or `shell` (explicit opt-in)";
    }
    if (argv && a.get("argv").isArray() && a.get("argv").isEmpty()) {
      return "exec argv must not be empty";
    }
    if (a.has("timeout_ms") && a.get("timeout_ms").isIntegralNumber() && a.get("timeout_ms").asLong() < 1) {
      return "exec timeout_ms must be at least 1";
    }
    return null;
  }

  private static boolean validScope(JsonNode s) {
    if (!s.isTextual()) {
      return false;
    }
    String v = s.asText();
    if (v.equals("screen") || v.equals("active_window")) {
      return true;
    }
    return Targets.windowIdOf(v) >= 0;
  }

  private static boolean validFormat(JsonNode f) {
    return f.isTextual() && (f.asText().equals("png") || f.asText().equals("jpeg"));
  }

  private static boolean validQuality(JsonNode q) {
    return q.isIntegralNumber() && q.asLong() >= 1 && q.asLong() <= 100;
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : n.toString();
  }

  private static String quoted(JsonNode n) {
    return n.isTextual() ? "\"" + n.asText() + "\"" : n.toString();
  }
}
