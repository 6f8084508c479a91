package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.PointerPosition;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Anthropic's computer-use tool ({@code computer_20250124}, {@code computer_20251124}) on an ACI
 * runtime. A call is a {@code tool_use} block (or just its {@code input}); the result is the
 * {@code tool_result} block: the screenshot after the action as a base64 png image of the declared
 * display size, {@code X=…,Y=…} text for {@code cursor_position}, or {@code is_error} with one
 * sentence. Coordinates are declared-display pixels, mapped through the last screenshot's
 * coordinate space onto the screen.
 */
public final class AnthropicComputerTool implements ComputerTool {
  /** The tool versions (the {@code type} of the tool definition). */
  public enum Version {
    COMPUTER_20250124("computer_20250124"),
    /** Adds {@code zoom} (the tool definition must set {@code enable_zoom}). */
    COMPUTER_20251124("computer_20251124");

    private final String type;

    Version(String type) {
      this.type = type;
    }

    public String type() {
      return type;
    }

    /** The version spelled {@code type}, or an {@link IllegalArgumentException} listing both. */
    public static Version of(String type) {
      for (Version v : values()) {
        if (v.type.equals(type)) {
          return v;
        }
      }
      throw new IllegalArgumentException("tool version must be computer_20250124 or computer_20251124, got " + type);
    }
  }

  /** One Anthropic scroll_amount step ("click" of the wheel), in the ACI scroll's pixels. */
  static final int PIXELS_PER_SCROLL_STEP = 100;
  /** Longest wait or hold the tool accepts, in seconds. */
  static final double MAX_WAIT_SECONDS = 300;

  private static final Set<String> POINTER_ACTIONS = Set.of("left_click", "right_click", "middle_click",
      "double_click", "triple_click", "scroll", "left_click_drag", "left_mouse_down", "left_mouse_up");

  private final Version version;
  private final Screen screen;
  private final boolean screenshots;

  private AnthropicComputerTool(Version version, Screen screen, boolean screenshots) {
    this.version = version;
    this.screen = screen;
    this.screenshots = screenshots;
  }

  /**
   * The tool on {@code client}'s runtime, declared with {@code display}; every action is answered
   * with the screenshot right after it (observe-after-act).
   */
  public static AnthropicComputerTool create(AciClient client, Version version, DisplaySize display) {
    return create(client, version, display, Duration.ZERO, true);
  }

  /**
   * As {@link #create(AciClient, Version, DisplaySize)}, waiting {@code settle} between an action
   * and its screenshot (for applications that animate), or answering actions with text only when
   * {@code screenshots} is false (the model then asks for {@code screenshot} itself).
   */
  public static AnthropicComputerTool create(AciClient client, Version version, DisplaySize display,
      Duration settle, boolean screenshots) {
    return new AnthropicComputerTool(version, new Screen(client, display, settle), screenshots);
  }

  @Override
  public DisplaySize display() {
    return screen.declared();
  }

  @Override
  public ToolResult call(JsonNode call) {
    String id = null;
    JsonNode input = call;
    if (call != null && call.has("input")) {
      id = call.path("id").isTextual() ? call.get("id").asText() : null;
      if (call.has("name") && !"computer".equals(call.path("name").asText())) {
        return error(id, "not a computer tool call (name: " + call.path("name").asText() + ")");
      }
      input = call.get("input");
    }
    if (input == null || !input.isObject()) {
      return error(id, "the tool input must be a JSON object with an action");
    }
    try {
      return run(id, input);
    } catch (ToolCallException e) {
      return error(id, e.getMessage());
    } catch (AciClientException e) {
      if (e.reason() == AciClientException.Reason.REMOTE_ERROR || e.reason() == AciClientException.Reason.NOT_ADVERTISED) {
        return error(id, e.getMessage());
      }
      throw e;
    }
  }

  private ToolResult run(String id, JsonNode input) {
    JsonNode a = input.get("action");
    if (a == null || !a.isTextual()) {
      throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, "the tool input needs an action");
    }
    String action = a.asText();
    Fields f = new Fields(input, action);
    DisplaySize d = screen.declared();
    if (POINTER_ACTIONS.contains(action) && f.has("text")) {
      throw new ToolCallException(ToolCallException.Reason.NOT_EXPRESSIBLE, action + " with keys held (text: "
          + input.get("text") + ") cannot be done over ACI v0: its key verb presses and releases, it cannot hold a key");
    }
    if (action.equals("cursor_position")) {
      PointerPosition p = screen.freshPointer();
      long[] m = screen.fromScreen(p.x(), p.y());
      return text(id, "X=" + m[0] + ",Y=" + m[1]);
    }
    String image = switch (action) {
      case "screenshot" -> screen.screenshot();
      case "left_click" -> screen.act(Action.click(at(f, d)), screenshots);
      case "right_click" -> screen.act(Action.rightClick(at(f, d)), screenshots);
      case "double_click" -> screen.act(Action.doubleClick(at(f, d)), screenshots);
      case "triple_click" -> {
        // No triple-click verb: a double click and a click at the same point, sent back to back,
        // fall within any toolkit's multi-click time.
        Target t = at(f, d);
        yield screen.actAll(List.of(Action.doubleClick(t), Action.click(t)), screenshots);
      }
      case "middle_click" -> {
        Target t = at(f, d);
        yield screen.actAll(List.of(
            Action.builder(Verb.MOUSE_DOWN).target(t).button(PointerButton.MIDDLE).build(),
            Action.builder(Verb.MOUSE_UP).target(t).button(PointerButton.MIDDLE).build()), screenshots);
      }
      case "mouse_move" -> screen.act(Action.move(target(f.coordinate("coordinate", d))), screenshots);
      case "left_click_drag" -> screen.act(Action.drag(target(f.coordinate("start_coordinate", d)),
          target(f.coordinate("coordinate", d))), screenshots);
      case "left_mouse_down", "left_mouse_up" -> {
        Action.Builder b = Action.builder(action.equals("left_mouse_down") ? Verb.MOUSE_DOWN : Verb.MOUSE_UP);
        if (f.has("coordinate")) {
          b.target(target(f.coordinate("coordinate", d)));
        }
        yield screen.act(b.build(), screenshots);
      }
      case "scroll" -> screen.act(scroll(f, d), screenshots);
      case "type" -> {
        String text = f.text("text");
        if (text.isEmpty()) {
          throw f.invalid("text", "must not be empty");
        }
        yield screen.act(Action.typeText(text), screenshots);
      }
      case "key" -> {
        List<Action> presses = new ArrayList<>();
        for (String combo : KeyNames.fromXdotool(f.text("text"))) {
          presses.add(Action.key(combo));
        }
        yield screen.actAll(presses, screenshots);
      }
      case "hold_key" -> {
        KeyNames.fromXdotool(f.text("text"));
        seconds(f, "duration");
        throw new ToolCallException(ToolCallException.Reason.NOT_EXPRESSIBLE, "hold_key cannot be done over ACI v0: "
            + "its key verb presses and releases, it cannot hold a key down; use key for a press");
      }
      case "wait" -> screen.waitThen(Math.round(seconds(f, "duration") * 1000), true);
      case "zoom" -> {
        if (version != Version.COMPUTER_20251124) {
          throw new ToolCallException(ToolCallException.Reason.UNKNOWN_ACTION,
              "zoom is an action of computer_20251124, not of " + version.type());
        }
        yield zoom(f, d);
      }
      default -> throw new ToolCallException(ToolCallException.Reason.UNKNOWN_ACTION, "unknown action \"" + action
          + "\" for " + version.type());
    };
    return image == null ? text(id, done(action)) : image(id, image);
  }

  private Target at(Fields f, DisplaySize d) {
    if (f.has("coordinate")) {
      return target(f.coordinate("coordinate", d));
    }
    // Without a coordinate the click lands where the pointer is.
    PointerPosition p = screen.pointer();
    return new Target.PointPx(p.x(), p.y());
  }

  private Target target(long[] xy) {
    return screen.toScreen(xy[0], xy[1]);
  }

  private Action scroll(Fields f, DisplaySize d) {
    String dir = f.text("scroll_direction").toLowerCase(Locale.ROOT);
    long amount = f.has("scroll_amount") ? f.integer("scroll_amount") : 3;
    if (amount < 1 || amount > 100) {
      throw f.invalid("scroll_amount", "must be 1 to 100 steps, got " + amount);
    }
    double px = amount * PIXELS_PER_SCROLL_STEP;
    double[] dxdy = switch (dir) {
      case "up" -> new double[] {0, -px};
      case "down" -> new double[] {0, px};
      case "left" -> new double[] {-px, 0};
      case "right" -> new double[] {px, 0};
      default -> throw f.invalid("scroll_direction", "must be up, down, left or right, got \"" + dir + "\"");
    };
    return Action.scroll(at(f, d), dxdy[0], dxdy[1]);
  }

  private static double seconds(Fields f, String field) {
    double s = f.number(field);
    if (s < 0 || s > MAX_WAIT_SECONDS) {
      throw f.invalid(field, "must be 0 to " + (int) MAX_WAIT_SECONDS + " seconds, got " + s);
    }
    return s;
  }

  private String zoom(Fields f, DisplaySize d) {
    JsonNode r = f.array("region");
    if (r.size() != 4) {
      throw f.invalid("region", "must be [x0, y0, x1, y1], got " + r);
    }
    long[] v = new long[4];
    for (int i = 0; i < 4; i++) {
      if (!r.get(i).isIntegralNumber()) {
        throw f.invalid("region", "must be whole pixels, got " + r);
      }
      v[i] = r.get(i).asLong();
    }
    if (v[0] < 0 || v[1] < 0 || v[2] >= d.width() || v[3] >= d.height()) {
      throw f.invalid("region", r + " is outside the " + d + " display");
    }
    if (v[2] <= v[0] || v[3] <= v[1]) {
      throw f.invalid("region", r + " must have x1 > x0 and y1 > y0");
    }
    return screen.zoom(v[0], v[1], v[2], v[3]);
  }

  private static String done(String action) {
    return action + " done";
  }

  private static ObjectNode result(String id) {
    ObjectNode r = JsonNodeFactory.instance.objectNode();
    r.put("type", "tool_result");
    if (id != null) {
      r.put("tool_use_id", id);
    }
    return r;
  }

  static ToolResult image(String id, String base64Png) {
    ObjectNode r = result(id);
    ObjectNode img = r.putArray("content").addObject();
    img.put("type", "image");
    ObjectNode source = img.putObject("source");
    source.put("type", "base64");
    source.put("media_type", "image/png");
    source.put("data", base64Png);
    return new ToolResult(r, null);
  }

  private static ToolResult text(String id, String text) {
    ObjectNode r = result(id);
    ArrayNode content = r.putArray("content");
    content.addObject().put("type", "text").put("text", text);
    return new ToolResult(r, null);
  }

  private static ToolResult error(String id, String message) {
    ObjectNode r = result(id);
    r.put("is_error", true);
    r.putArray("content").addObject().put("type", "text").put("text", message);
    return new ToolResult(r, message);
  }
}
