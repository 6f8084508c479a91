package dev.agentdesk.aci.runtime.session;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Desktop;
import dev.agentdesk.aci.runtime.desktop.Gestures;
import dev.agentdesk.aci.runtime.desktop.Keysyms;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.desktop.WindowInfo;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Result;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The pointer, keyboard, clipboard, launch and window verbs. Each returns the one reply it owes. */
final class DesktopActions {
  private final Desktop desktop;
  private final Gestures gestures;
  private final Targets.ElementRefs refs;

  DesktopActions(Desktop desktop, Targets.ElementRefs refs) {
    this.desktop = desktop;
    this.gestures = new Gestures(desktop.input());
    this.refs = refs;
  }

  AciMessage run(String callId, Action a) throws InterruptedException {
    switch (a.verb()) {
      case MOVE -> {
        int[] p = point(a);
        desktop.input().motion(p[0], p[1]);
        desktop.input().sync();
      }
      case CLICK -> click(a, 1, 1);
      case DOUBLE_CLICK -> click(a, 1, 2);
      case RIGHT_CLICK -> click(a, 3, 1);
      case MOUSE_DOWN, MOUSE_UP -> {
        if (a.target() != null) {
          int[] p = point(a);
          desktop.input().motion(p[0], p[1]);
        }
        desktop.input().button(button(a.button()), a.verb() == dev.agentdesk.aci.wire.Verb.MOUSE_DOWN);
        desktop.input().sync();
      }
      case DRAG -> {
        int[] from = point(a);
        if (a.to() == null) {
          throw AciRuntimeException.badRequest("drag requires a `to` target");
        }
        int[] to = Targets.resolve(a.to(), desktop.capture().screen(), refs);
        gestures.drag(from[0], from[1], to[0], to[1], button(a.button()), a.durationMs() == null ? 0 : a.durationMs());
      }
      case SCROLL -> {
        int[] p = point(a);
        gestures.scroll(p[0], p[1], a.dx() == null ? 0 : a.dx(), a.dy() == null ? 0 : a.dy());
      }
      case TYPE_TEXT -> desktop.input().typeKeysyms(Keysyms.forText(a.text()));
      case KEY -> {
        Keysyms.Combo combo = Keysyms.parseCombo(a.keys());
        desktop.input().keyCombo(combo.modifiers(), combo.key());
      }
      case CLIPBOARD_SET -> desktop.clipboard().set(a.text());
      case CLIPBOARD_GET -> {
        ObjectNode v = JsonNodeFactory.instance.objectNode();
        v.put("text", desktop.clipboard().get());
        return Result.ok(callId, v);
      }
      case LAUNCH_APP -> launch(a.app(), a.args() == null ? List.of() : a.args(), desktop.name());
      case ACTIVATE_WINDOW -> activate(a);
      default -> throw new IllegalStateException("not a desktop verb: " + a.verb());
    }
    return Ack.ok(callId);
  }

  private int[] point(Action a) {
    return Targets.resolve(a.target(), desktop.capture().screen(), refs);
  }

  private void click(Action a, int button, int count) {
    int[] p = point(a);
    gestures.click(p[0], p[1], button, count);
  }

  private static int button(PointerButton b) {
    if (b == null) {
      return 1;
    }
    return switch (b) {
      case LEFT -> 1;
      case MIDDLE -> 2;
      case RIGHT -> 3;
    };
  }

  /**
   * Detached, no shell: its own session (setsid), stdio on /dev/null, reaped in the background,
   * with the runtime's environment and DISPLAY pointing at the driven display.
   */
  private static void launch(String app, List<String> args, String display) {
    String program = resolve(app);
    if (program == null) {
      throw AciRuntimeException.environment("launch_app: failed to spawn \"" + app + "\" (not found on PATH)");
    }
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/setsid", "--", program));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("DISPLAY", display);
    File devNull = new File("/dev/null");
    pb.redirectInput(ProcessBuilder.Redirect.from(devNull));
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(devNull));
    pb.redirectError(ProcessBuilder.Redirect.appendTo(devNull));
    try {
      Process p = pb.start();
      p.onExit(); // the JDK reaps it; nothing waits for it
    } catch (IOException e) {
      throw AciRuntimeException.environment("launch_app: failed to spawn \"" + app + "\" (" + e.getMessage() + ")");
    }
  }

  private static String resolve(String app) {
    if (app.startsWith("/")) {
      Path p = Path.of(app);
      return Files.isRegularFile(p) && Files.isExecutable(p) ? app : null;
    }
    if (app.contains("/")) {
      return null;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, app);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p.toAbsolutePath().toString();
      }
    }
    return null;
  }

  private void activate(Action a) {
    if (a.windowId() != null) {
      desktop.windows().activate(a.windowId());
      return;
    }
    List<WindowInfo> all = desktop.windows().list();
    String needle = a.app().toLowerCase(Locale.ROOT);
    WindowInfo match = all.stream().filter(w -> w.title().toLowerCase(Locale.ROOT).contains(needle)).findFirst()
        .orElseThrow(() -> new AciRuntimeException(AciRuntimeException.Reason.NOT_FOUND,
            "activate_window: no window title matches app \"" + a.app() + "\" (of " + all.size() + " enumerated)"));
    desktop.windows().activate(match.id());
  }

  /** {@code list_windows}: id, title, class, pid, geometry, focused. */
  com.fasterxml.jackson.databind.node.ArrayNode listWindows() {
    var arr = JsonNodeFactory.instance.arrayNode();
    for (WindowInfo w : desktop.windows().list()) {
      ObjectNode o = arr.addObject();
      o.put("id", w.id());
      o.put("title", w.title());
      o.put("class", w.appClass());
      if (w.pid() == null) {
        o.putNull("pid");
      } else {
        o.put("pid", w.pid());
      }
      Rect b = w.bounds();
      o.put("x", b.x());
      o.put("y", b.y());
      o.put("w", b.w());
      o.put("h", b.h());
      o.put("focused", w.focused());
    }
    return arr;
  }
}
