package dev.agentdesk.app.aci;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.ActionReply;
import dev.agentdesk.aci.client.ExecEvent;
import dev.agentdesk.aci.client.ExecStream;
import dev.agentdesk.aci.client.Screenshot;
import dev.agentdesk.aci.client.WindowInfo;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.aci.wire.ExecExitMsg;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.QueryKind;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.Scope;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireEnum;
import dev.agentdesk.aci.WireException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.Stack;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** The subcommands of {@code agentdesk aci}, one small class each, all on the SDK. */
public final class AciCommands {
  private AciCommands() {}

  /** Connects, runs the subcommand, closes; prints text, or the wire messages with --json. */
  abstract static class Base implements Callable<Integer> {
    @ParentCommand
    AciSessionOptions parent;

    @Spec
    CommandSpec spec;

    boolean json() {
      return parent.json();
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }

    void wire(AciMessage m) {
      out().println(WireCodec.encode(m));
    }

    @Override
    public final Integer call() {
      try (AciClient client = AciSession.open(parent, System.getenv())) {
        int code = run(client);
        out().flush();
        err().flush();
        return code;
      } catch (AciClientException e) {
        throw AciSession.translate(parent, e);
      }
    }

    abstract int run(AciClient client);

    /** Prints an action's reply: the wire messages with --json, else {@code human}. */
    int done(ActionReply reply, String human) {
      if (json()) {
        if (reply instanceof ActionReply.Acked a) {
          wire(a.ack());
          if (a.followUp() != null) {
            wire(a.followUp());
          }
        } else if (reply instanceof ActionReply.Observed o) {
          wire(o.observation());
        } else {
          wire(((ActionReply.Returned) reply).result());
        }
      } else {
        out().println(human);
      }
      return 0;
    }
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  static Target px(double x, double y) {
    return new Target.PointPx(x, y);
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Show the runtime's welcome, platform and screen size.")
  public static final class Info extends Base {
    @Override
    int run(AciClient c) {
      Result platform = c.ask(QueryKind.PLATFORM);
      Result size = c.ask(QueryKind.SCREEN_SIZE);
      if (json()) {
        wire(c.welcome());
        wire(platform);
        wire(size);
        return 0;
      }
      Capabilities caps = c.capabilities();
      PrintWriter o = out();
      o.printf("runtime    %s %s (%s)%n", c.welcome().server().name(), c.welcome().server().version(),
          c.welcome().server().platform().wire());
      o.printf("platform   %s%n", platform.ok() ? platform.value().asText() : "unknown: " + platform.error());
      o.printf("screen     %s%n", size.ok() ? size.value().path("w").asLong() + "x" + size.value().path("h").asLong()
          : "unknown: " + size.error());
      o.printf("verbs      %s%n", names(caps.verbs()));
      o.printf("targets    %s%n", names(caps.targets()));
      o.printf("observes   %s%n", names(caps.observationTypes()));
      o.printf("formats    %s%s%n", names(caps.imageFormatsOrDefault()),
          caps.maxLongEdge() == null ? "" : "  (max long edge " + caps.maxLongEdge() + ")");
      List<String> features = new ArrayList<>();
      if (caps.supportsBinaryFrames()) {
        features.add("binary_frames");
      }
      if (caps.supportsFrameDedup()) {
        features.add("frame_dedup");
      }
      if (caps.supportsObserveAfterAct()) {
        features.add("observe_after_act");
      }
      if (caps.supportsStructuredObservation()) {
        features.add("structured_observation");
      }
      o.printf("features   %s%n", features.isEmpty() ? "-" : String.join(" ", features));
      return 0;
    }

    private static String names(List<? extends WireEnum> values) {
      return values.isEmpty() ? "-" : String.join(", ", values.stream().map(WireEnum::wire).toList());
    }
  }

  @Command(name = "screenshot", mixinStandardHelpOptions = true, description = "Capture the screen into a file.")
  public static final class ScreenshotCmd extends Base {
    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "Where to write the image.")
    Path output;

    @Option(names = "--format", paramLabel = "png|jpeg", description = "Image codec (default png).")
    String format;

    @Option(names = "--quality", paramLabel = "N", description = "JPEG quality 1-100.")
    Integer quality;

    @Option(names = "--max-long-edge", paramLabel = "N", description = "Downscale so the longer side is at most N px.")
    Integer maxLongEdge;

    @Option(names = "--scope", paramLabel = "S", description = "screen, active_window or window:<id>.")
    String scope;

    @Override
    int run(AciClient c) {
      ObserveSpec levers;
      try {
        ImageFormat f = format == null ? null : WireEnum.lookup(ImageFormat.class, format.toLowerCase(Locale.ROOT));
        if (format != null && f == null) {
          throw parent.userError("--format must be png or jpeg, got " + format, null);
        }
        levers = new ObserveSpec(scope == null ? null : Scope.parse(scope), f, quality, maxLongEdge);
      } catch (WireException e) {
        throw parent.userError("bad screenshot option: " + e.getMessage(), e);
      }
      Screenshot shot = c.screenshot(levers);
      try {
        Files.write(output, shot.image());
      } catch (IOException e) {
        throw parent.userError("cannot write " + output + ": " + e.getMessage(), e);
      }
      if (json()) {
        wire(shot.observation());
      } else {
        ImageFormat f = shot.observation().image() != null && shot.observation().image().format() != null
            ? shot.observation().image().format() : ImageFormat.PNG;
        out().printf("wrote %s (%dx%d %s, %d bytes)%n", output, shot.width(), shot.height(), f.wire(),
            shot.image().length);
      }
      return 0;
    }
  }

  @Command(name = "click", mixinStandardHelpOptions = true, description = "Click at X Y (global pixels).")
  public static final class Click extends Base {
    @Parameters(index = "0", paramLabel = "X") double x;
    @Parameters(index = "1", paramLabel = "Y") double y;

    @Option(names = "--button", paramLabel = "left|middle|right", defaultValue = "left",
        description = "Button (default ${DEFAULT-VALUE}).")
    String button;

    @Override
    int run(AciClient c) {
      String where = fmt(x) + "," + fmt(y);
      return switch (button.toLowerCase(Locale.ROOT)) {
        case "left" -> done(c.act(Action.click(px(x, y))), "clicked " + where);
        case "right" -> done(c.act(Action.rightClick(px(x, y))), "right-clicked " + where);
        case "middle" -> {
          // The vocabulary has no middle_click: press and release the middle button at the point.
          ActionReply down = c.act(Action.builder(Verb.MOUSE_DOWN).target(px(x, y)).button(PointerButton.MIDDLE).build());
          if (json()) {
            done(down, "");
          }
          yield done(c.act(Action.builder(Verb.MOUSE_UP).target(px(x, y)).button(PointerButton.MIDDLE).build()),
              "middle-clicked " + where);
        }
        default -> throw parent.userError("--button must be left, middle or right, got " + button, null);
      };
    }
  }

  @Command(name = "move", mixinStandardHelpOptions = true, description = "Move the pointer to X Y.")
  public static final class Move extends Base {
    @Parameters(index = "0", paramLabel = "X") double x;
    @Parameters(index = "1", paramLabel = "Y") double y;

    @Override
    int run(AciClient c) {
      return done(c.act(Action.move(px(x, y))), "moved to " + fmt(x) + "," + fmt(y));
    }
  }

  @Command(name = "drag", mixinStandardHelpOptions = true, description = "Drag from X1 Y1 to X2 Y2.")
  public static final class Drag extends Base {
    @Parameters(index = "0", paramLabel = "X1") double x1;
    @Parameters(index = "1", paramLabel = "Y1") double y1;
    @Parameters(index = "2", paramLabel = "X2") double x2;
    @Parameters(index = "3", paramLabel = "Y2") double y2;

    @Option(names = "--duration-ms", paramLabel = "N", description = "Spread the gesture over N ms.")
    Long durationMs;

    @Option(names = "--button", paramLabel = "left|middle|right", description = "Button (default left).")
    String button;

    @Override
    int run(AciClient c) {
      PointerButton b = button == null ? null : WireEnum.lookup(PointerButton.class, button.toLowerCase(Locale.ROOT));
      if (button != null && b == null) {
        throw parent.userError("--button must be left, middle or right, got " + button, null);
      }
      if (durationMs != null && durationMs < 0) {
        throw parent.userError("--duration-ms must be >= 0", null);
      }
      Action a = Action.builder(Verb.DRAG).target(px(x1, y1)).to(px(x2, y2)).durationMs(durationMs).button(b).build();
      return done(c.act(a), "dragged " + fmt(x1) + "," + fmt(y1) + " -> " + fmt(x2) + "," + fmt(y2));
    }
  }

  @Command(name = "scroll", mixinStandardHelpOptions = true,
      description = "Scroll by DX DY pixels (+DY down, +DX right), at --at X Y or the screen's centre.")
  public static final class Scroll extends Base {
    @Parameters(index = "0", paramLabel = "DX") double dx;
    @Parameters(index = "1", paramLabel = "DY") double dy;

    @Option(names = "--at", arity = "2", paramLabel = "X Y", description = "Where to scroll (default: screen centre).")
    List<Double> at;

    @Override
    int run(AciClient c) {
      Target where;
      if (at != null) {
        where = px(at.get(0), at.get(1));
      } else {
        var size = c.screenSize();
        where = px(Math.floor(size.w() / 2.0), Math.floor(size.h() / 2.0));
      }
      return done(c.act(Action.scroll(where, dx, dy)), "scrolled " + fmt(dx) + "," + fmt(dy));
    }
  }

  @Command(name = "type", mixinStandardHelpOptions = true, description = "Type TEXT.")
  public static final class Type extends Base {
    @Parameters(index = "0", paramLabel = "TEXT") String text;

    @Override
    int run(AciClient c) {
      return done(c.act(Action.typeText(text)), "typed " + text.codePointCount(0, text.length()) + " characters");
    }
  }

  @Command(name = "key", mixinStandardHelpOptions = true, description = "Press a key COMBO such as ctrl+s.")
  public static final class Key extends Base {
    @Parameters(index = "0", paramLabel = "COMBO") String combo;

    @Override
    int run(AciClient c) {
      return done(c.act(Action.key(combo)), "pressed " + combo);
    }
  }

  @Command(name = "exec", mixinStandardHelpOptions = true,
      description = "Run a command in the guest; its exit status becomes this command's.")
  public static final class Exec extends Base {
    @Option(names = "--shell", description = "Run the words as one /bin/sh -c command line.")
    boolean shell;

    @Option(names = "--timeout-ms", paramLabel = "N", description = "Kill the command after N ms.")
    Long timeoutMs;

    @Option(names = "--stream", description = "Print output as it arrives.")
    boolean stream;

    @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments (after --).")
    List<String> command;

    @Override
    int run(AciClient c) {
      if (timeoutMs != null && timeoutMs < 1) {
        throw parent.userError("--timeout-ms must be >= 1", null);
      }
      Action.Builder b = Action.builder(Verb.EXEC).timeoutMs(timeoutMs);
      Action a = (shell ? b.shell(String.join(" ", command)) : b.argv(command)).build();
      if (!stream) {
        ExecResult r;
        if (json()) {
          ActionReply.Returned reply = (ActionReply.Returned) c.withTimeout(c.execReplyTimeout(a)).act(a);
          wire(reply.result());
          r = WireCodec.decodeAs(ExecResult.class, reply.result().value());
        } else {
          r = c.exec(a);
          out().print(r.stdout());
          err().print(r.stderr());
        }
        return exitStatus(r.exitCode(), r.signal(), r.timedOut(), null);
      }
      // A quiet command may send nothing until its deadline: each wait covers that deadline too.
      Duration wait = c.execReplyTimeout(a);
      ExecStream s = c.withTimeout(wait).execStream(a);
      Utf8Sink stdout = new Utf8Sink(out());
      Utf8Sink stderr = new Utf8Sink(err());
      while (true) {
        ExecEvent e = s.next(wait);
        if (e instanceof ExecEvent.Chunk chunk) {
          if (json()) {
            wire(ExecOutputMsg.of(s.callId(), chunk.seq(), chunk.channel(), chunk.data()));
          } else {
            (chunk.channel() == Channel.STDOUT ? stdout : stderr).write(chunk.data());
          }
        } else {
          ExecExitMsg exit = ((ExecEvent.Exit) e).exit();
          stdout.finish();
          stderr.finish();
          if (json()) {
            wire(exit);
          }
          return exitStatus(exit.exitCode(), exit.signal(), exit.timedOut(), exit.error());
        }
      }
    }

    /** Shell conventions: the child's code; 128+N for signal N; 124 for a timeout. */
    private int exitStatus(Long code, Long signal, boolean timedOut, String error) {
      if (error != null) {
        err().println("agentdesk aci exec: " + error);
        return 127;
      }
      if (timedOut) {
        err().println("agentdesk aci exec: timed out" + (signal == null ? "" : " (killed by signal " + signal + ")"));
        return 124;
      }
      if (code == null) {
        return signal == null ? 1 : 128 + (int) (long) signal;
      }
      return (int) (code & 0xff);
    }
  }

  @Command(name = "observe", mixinStandardHelpOptions = true,
      description = "Print the accessibility tree (structured observation).")
  public static final class Observe extends Base {
    @Option(names = "--diff", description = "Only what changed since this session's previous observe.")
    boolean diff;

    @Override
    int run(AciClient c) {
      ObservationMsg o = c.observe(diff ? Boolean.TRUE : null, null);
      if (json()) {
        wire(o);
      } else {
        out().println(o.treeText() == null ? "(no tree text; " + (o.elements() == null ? 0 : o.elements().size())
            + " elements)" : o.treeText());
      }
      return 0;
    }
  }

  @Command(name = "windows", mixinStandardHelpOptions = true, description = "List the guest's windows.")
  public static final class Windows extends Base {
    @Override
    int run(AciClient c) {
      if (json()) {
        wire(c.ask(QueryKind.LIST_WINDOWS));
        return 0;
      }
      List<WindowInfo> windows = c.listWindows();
      if (windows.isEmpty()) {
        out().println("no windows");
      }
      for (WindowInfo w : windows) {
        out().printf("%s 0x%08x  %5d,%-5d %5dx%-5d %s%n", w.focused() ? "*" : " ", w.id(), w.x(), w.y(), w.w(), w.h(),
            w.title());
      }
      return 0;
    }
  }

  @Command(name = "activate", mixinStandardHelpOptions = true,
      description = "Raise and focus a window by id (decimal or 0x-hex) or by title fragment.")
  public static final class Activate extends Base {
    @Parameters(index = "0", paramLabel = "ID|TITLE") String window;

    @Override
    int run(AciClient c) {
      Long id = parseId(window);
      Action a = id != null ? Action.activateWindow(id) : Action.activateWindowByTitle(window);
      return done(c.act(a), "activated " + window);
    }

    static Long parseId(String s) {
      try {
        if (s.startsWith("0x") || s.startsWith("0X")) {
          return Long.parseLong(s.substring(2), 16);
        }
        return s.chars().allMatch(Character::isDigit) ? Long.parseLong(s) : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  /** Takes every remaining word, dashes included: {@code launch xclock -digital} passes -digital on. */
  static final class AllTheRest implements IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
      List<String> words = new ArrayList<>();
      while (!args.isEmpty()) {
        words.add(args.pop());
      }
      argSpec.setValue(words);
    }
  }

  @Command(name = "launch", mixinStandardHelpOptions = true, description = "Start APP with ARGS (no shell).")
  public static final class Launch extends Base {
    @Parameters(arity = "1..*", paramLabel = "APP [ARGS...]", parameterConsumer = AllTheRest.class,
        description = "The program (on the guest's PATH or absolute) and its arguments, passed verbatim.")
    List<String> words;

    @Override
    int run(AciClient c) {
      String app = words.get(0);
      if (app.isEmpty()) {
        throw parent.userError("APP must not be empty", null);
      }
      return done(c.act(Action.launchApp(app, words.subList(1, words.size()))), "launched " + app);
    }
  }

  @Command(name = "clipboard", mixinStandardHelpOptions = true, description = "clipboard get | clipboard set TEXT")
  public static final class Clipboard extends Base {
    @Parameters(index = "0", paramLabel = "get|set") String op;
    @Parameters(index = "1", arity = "0..1", paramLabel = "TEXT") String text;

    @Override
    int run(AciClient c) {
      switch (op) {
        case "get" -> {
          if (text != null) {
            throw parent.userError("clipboard get takes no TEXT", null);
          }
          ActionReply.Returned r = (ActionReply.Returned) c.act(Action.clipboardGet());
          if (json()) {
            wire(r.result());
          } else {
            out().println(r.result().value().path("text").asText());
          }
          return 0;
        }
        case "set" -> {
          if (text == null) {
            throw parent.userError("clipboard set needs TEXT", null);
          }
          return done(c.act(Action.clipboardSet(text)), "clipboard set (" + text.length() + " characters)");
        }
        default -> throw parent.userError("clipboard takes get or set, got " + op, null);
      }
    }
  }
}
