package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's computer-use tool on an ACI runtime. A call is a {@code computer_call} item (with one
 * {@code action}, or a list of {@code actions} run in order), or just an action object; the result
 * is the {@code computer_call_output} item whose output is the screenshot after the action(s), an
 * {@code input_image} with a png data URL of the declared display size. Coordinates ({@code x},
 * {@code y}, drag paths) are declared-display pixels, mapped through the last screenshot's
 * coordinate space onto the screen; {@code scroll_x}/{@code scroll_y} are pixels, as in ACI.
 */
public final class OpenAiComputerTool implements ComputerTool {
  /** An OpenAI {@code wait} has no duration; this is the pause the vendor's samples use. */
  static final long WAIT_MS = 2000;

  private final Screen screen;

  private OpenAiComputerTool(Screen screen) {
    this.screen = screen;
  }

  /** The tool on {@code client}'s runtime, declared with {@code display}. */
  public static OpenAiComputerTool create(AciClient client, DisplaySize display) {
    return create(client, display, Duration.ZERO);
  }

  /** As {@link #create(AciClient, DisplaySize)}, waiting {@code settle} before each screenshot. */
  public static OpenAiComputerTool create(AciClient client, DisplaySize display, Duration settle) {
    return new OpenAiComputerTool(new Screen(client, display, settle));
  }

  @Override
  public DisplaySize display() {
    return screen.declared();
  }

  @Override
  public ToolResult call(JsonNode call) {
    String callId = call != null && call.path("call_id").isTextual() ? call.get("call_id").asText() : null;
    try {
      List<JsonNode> actions = actions(call);
      String image = null;
      for (int i = 0; i < actions.size(); i++) {
        image = run(actions.get(i), i == actions.size() - 1);
      }
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      out.put("type", "computer_call_output");
      if (callId != null) {
        out.put("call_id", callId);
      }
      ObjectNode output = out.putObject("output");
      output.put("type", "input_image");
      output.put("image_url", "data:image/png;base64," + image);
      return new ToolResult(out, null);
    } catch (ToolCallException e) {
      return new ToolResult(null, e.getMessage());
    } catch (AciClientException e) {
      if (e.reason() == AciClientException.Reason.REMOTE_ERROR || e.reason() == AciClientException.Reason.NOT_ADVERTISED) {
        return new ToolResult(null, e.getMessage());
      }
      throw e;
    }
  }

  private static List<JsonNode> actions(JsonNode call) {
    if (call == null || !call.isObject()) {
      throw new ToolCallException(ToolCallException.Reason.INVALID_VALUE, "a computer call must be a JSON object");
    }
    List<JsonNode> out = new ArrayList<>();
    if (call.has("actions")) {
      JsonNode list = call.get("actions");
      if (!list.isArray() || list.isEmpty()) {
        throw new ToolCallException(ToolCallException.Reason.INVALID_VALUE, "actions must be a non-empty list");
      }
      list.forEach(out::add);
    } else if (call.has("action")) {
      out.add(call.get("action"));
    } else if (call.has("type") && !"computer_call".equals(call.path("type").asText())) {
      out.add(call);
    } else {
      throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, "a computer_call needs an action");
    }
    for (JsonNode a : out) {
      if (!a.isObject() || !a.path("type").isTextual()) {
        throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, "every action needs a type, got " + a);
      }
    }
    return out;
  }

  /** Runs one action; returns the screenshot after it when {@code last}, else null. */
  private String run(JsonNode a, boolean last) {
    String type = a.get("type").asText();
    Fields f = new Fields(a, type);
    DisplaySize d = screen.declared();
    return switch (type) {
      case "screenshot" -> last ? screen.screenshot() : null;
      case "click" -> {
        Target t = point(a, type, d);
        String button = a.path("button").asText("left");
        yield switch (button) {
          case "left" -> screen.act(Action.click(t), last);
          case "right" -> screen.act(Action.rightClick(t), last);
          case "wheel" -> screen.actAll(List.of(
              Action.builder(Verb.MOUSE_DOWN).target(t).button(PointerButton.MIDDLE).build(),
              Action.builder(Verb.MOUSE_UP).target(t).button(PointerButton.MIDDLE).build()), last);
          case "back", "forward" -> throw new ToolCallException(ToolCallException.Reason.NOT_EXPRESSIBLE,
              "click with the " + button + " button cannot be done over ACI v0 (its buttons are left, middle, right)");
          default -> throw f.invalid("button", "must be left, right, wheel, back or forward, got \"" + button + "\"");
        };
      }
      case "double_click" -> screen.act(Action.doubleClick(point(a, type, d)), last);
      case "move" -> screen.act(Action.move(point(a, type, d)), last);
      case "drag" -> drag(f, type, d, last);
      case "scroll" -> {
        Target t = point(a, type, d);
        double dx = f.has("scroll_x") ? f.number("scroll_x") : 0;
        double dy = f.has("scroll_y") ? f.number("scroll_y") : 0;
        if (dx == 0 && dy == 0) {
          throw f.invalid("scroll_x", "and scroll_y are both 0: nothing to scroll");
        }
        yield screen.act(Action.scroll(t, dx, dy), last);
      }
      case "type" -> {
        String text = f.text("text");
        if (text.isEmpty()) {
          throw f.invalid("text", "must not be empty");
        }
        yield screen.act(Action.typeText(text), last);
      }
      case "keypress" -> screen.act(Action.key(KeyNames.fromOpenAi(f.strings("keys"))), last);
      case "wait" -> {
        long ms = f.has("ms") ? f.integer("ms") : WAIT_MS;
        if (ms < 0 || ms > 300_000) {
          throw f.invalid("ms", "must be 0 to 300000, got " + ms);
        }
        yield screen.waitThen(ms, last);
      }
      default -> throw new ToolCallException(ToolCallException.Reason.UNKNOWN_ACTION, "unknown action type \""
          + type + "\" (click, double_click, drag, keypress, move, screenshot, scroll, type, wait)");
    };
  }

  private Target point(JsonNode a, String type, DisplaySize d) {
    long[] xy = Fields.point(a, "x, y", type, d);
    return screen.toScreen(xy[0], xy[1]);
  }

  private String drag(Fields f, String type, DisplaySize d, boolean last) {
    JsonNode path = f.array("path");
    if (path.size() < 2) {
      throw f.invalid("path", "needs at least 2 points, got " + path.size());
    }
    List<Target> points = new ArrayList<>();
    for (int i = 0; i < path.size(); i++) {
      long[] xy = Fields.point(path.get(i), "path[" + i + "]", type, d);
      points.add(screen.toScreen(xy[0], xy[1]));
    }
    if (points.size() == 2) {
      return screen.act(Action.drag(points.get(0), points.get(1)), last);
    }
    // A longer path: press at the first point, move through the rest, release at the last.
    List<Action> steps = new ArrayList<>();
    steps.add(Action.builder(Verb.MOUSE_DOWN).target(points.get(0)).build());
    for (Target p : points.subList(1, points.size())) {
      steps.add(Action.move(p));
    }
    steps.add(Action.builder(Verb.MOUSE_UP).target(points.get(points.size() - 1)).build());
    return screen.actAll(steps, last);
  }
}
