package dev.agentdesk.aci.wire;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One typed action (schema {@code Action}). Only {@code verb} is required; every other component
 * may be null (absent on the wire). The constructor enforces every field bound and every
 * {@code allOf} rule of the schema — which fields a verb needs, and which fields only some verbs
 * admit — so an {@code Action} that exists is one the schema accepts. Build one with the static
 * factories or {@link #builder(Verb)}.
 */
public record Action(
    Verb verb,
    Target target,
    Target to,
    PointerButton button,
    Long durationMs,
    ObserveSpec observe,
    String text,
    String keys,
    Double dx,
    Double dy,
    Long ms,
    Scope scope,
    Double fps,
    Integer maxLongEdge,
    ImageFormat format,
    Integer quality,
    Boolean delta,
    String resumeStream,
    String ifNoneMatch,
    Boolean structured,
    Boolean diff,
    Long settleMs,
    List<String> argv,
    String shell,
    String cwd,
    Map<String, String> env,
    Long timeoutMs,
    String stdin,
    Boolean stream,
    Boolean pty,
    String app,
    List<String> args,
    Long windowId) {

  private static final Set<Verb> NEED_TARGET =
      Set.of(Verb.CLICK, Verb.DOUBLE_CLICK, Verb.RIGHT_CLICK, Verb.MOVE, Verb.SCROLL, Verb.INVOKE_ACTION,
          Verb.SET_VALUE);

  public Action {
    Check.required(verb, "verb");
    Check.atLeast(durationMs, 0, "duration_ms");
    Check.finite(dx, "dx");
    Check.finite(dy, "dy");
    Check.atLeast(ms, 0, "ms");
    Check.between(fps, 0.1, 30.0, "fps");
    Check.atLeast(maxLongEdge, 1, "max_long_edge");
    Check.between(quality, 1, 100, "quality");
    Check.atLeast(settleMs, 0, "settle_ms");
    argv = Check.nonEmptyList(argv, "argv");
    env = Check.map(env, "env");
    Check.atLeast(timeoutMs, 1, "timeout_ms");
    if (pty != null && pty) {
      throw new dev.agentdesk.aci.WireException(dev.agentdesk.aci.WireException.Reason.INVALID_VALUE, "/pty",
          "pty is reserved: only false is allowed in v0");
    }
    Check.nonEmpty(app, "app");
    args = Check.list(args, "args");
    Check.atLeast(windowId, 0, "window_id");
    checkRules(verb, target, to, observe, text, keys, structured, diff, settleMs, argv, shell, cwd, env,
        timeoutMs, stdin, stream, pty, app, args, windowId);
  }

  // The schema's allOf, rule by rule and in its order; the message names the rule.
  private static void checkRules(Verb verb, Target target, Target to, ObserveSpec observe, String text, String keys,
      Boolean structured, Boolean diff, Long settleMs, List<String> argv, String shell, String cwd,
      Map<String, String> env, Long timeoutMs, String stdin, Boolean stream, Boolean pty, String app,
      List<String> args, Long windowId) {
    String v = verb.wire();
    if (NEED_TARGET.contains(verb)) {
      Check.rule(target != null, "target", v + " requires target");
    }
    if (verb == Verb.DRAG) {
      Check.rule(target != null, "target", "drag requires target and to");
      Check.rule(to != null, "to", "drag requires target and to");
    }
    if (verb == Verb.TYPE_TEXT || verb == Verb.SET_VALUE || verb == Verb.CLIPBOARD_SET) {
      Check.rule(text != null, "text", v + " requires text");
    }
    if (verb == Verb.KEY) {
      Check.rule(keys != null, "keys", "key requires keys");
    }
    if (observe != null) {
      Check.rule(verb.isMutating(), "observe", "observe is only admitted on mutating verbs, not " + v);
    }
    if (structured != null || diff != null || settleMs != null) {
      String field = structured != null ? "structured" : diff != null ? "diff" : "settle_ms";
      Check.rule(verb == Verb.OBSERVE, field, field + " is only admitted on observe, not " + v);
    }
    String execField = argv != null ? "argv" : shell != null ? "shell" : cwd != null ? "cwd" : env != null ? "env"
        : timeoutMs != null ? "timeout_ms" : stdin != null ? "stdin" : stream != null ? "stream"
        : pty != null ? "pty" : null;
    if (execField != null) {
      Check.rule(verb == Verb.EXEC, execField, execField + " is only admitted on exec, not " + v);
    }
    if (verb == Verb.EXEC) {
      Check.rule(argv != null || shell != null, "", "exec requires exactly one of argv or shell (neither given)");
      Check.rule(argv == null || shell == null, "", "exec takes exactly one of argv or shell, not both");
    }
    if (verb == Verb.LAUNCH_APP) {
      Check.rule(app != null, "app", "launch_app requires app");
    }
    if (verb == Verb.ACTIVATE_WINDOW) {
      Check.rule(windowId != null || app != null, "", "activate_window requires window_id or app");
    }
    if (args != null) {
      Check.rule(verb == Verb.LAUNCH_APP, "args", "args is only admitted on launch_app, not " + v);
    }
    if (windowId != null) {
      Check.rule(verb == Verb.ACTIVATE_WINDOW, "window_id", "window_id is only admitted on activate_window, not " + v);
    }
    if (app != null) {
      Check.rule(verb == Verb.LAUNCH_APP || verb == Verb.ACTIVATE_WINDOW, "app",
          "app is only admitted on launch_app or activate_window, not " + v);
    }
  }

  /** A builder with every optional field absent. */
  public static Builder builder(Verb verb) {
    return new Builder(verb);
  }

  /** A builder holding this action's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public static Action click(Target target) {
    return builder(Verb.CLICK).target(target).build();
  }

  public static Action doubleClick(Target target) {
    return builder(Verb.DOUBLE_CLICK).target(target).build();
  }

  public static Action rightClick(Target target) {
    return builder(Verb.RIGHT_CLICK).target(target).build();
  }

  public static Action move(Target target) {
    return builder(Verb.MOVE).target(target).build();
  }

  public static Action drag(Target from, Target to) {
    return builder(Verb.DRAG).target(from).to(to).build();
  }

  public static Action scroll(Target at, double dx, double dy) {
    return builder(Verb.SCROLL).target(at).dx(dx).dy(dy).build();
  }

  public static Action typeText(String text) {
    return builder(Verb.TYPE_TEXT).text(text).build();
  }

  public static Action key(String combo) {
    return builder(Verb.KEY).keys(combo).build();
  }

  public static Action screenshot() {
    return builder(Verb.SCREENSHOT).build();
  }

  public static Action waitMs(long ms) {
    return builder(Verb.WAIT).ms(ms).build();
  }

  public static Action observeTree() {
    return builder(Verb.OBSERVE).build();
  }

  public static Action exec(List<String> argv) {
    return builder(Verb.EXEC).argv(argv).build();
  }

  public static Action execShell(String commandLine) {
    return builder(Verb.EXEC).shell(commandLine).build();
  }

  public static Action clipboardGet() {
    return builder(Verb.CLIPBOARD_GET).build();
  }

  public static Action clipboardSet(String text) {
    return builder(Verb.CLIPBOARD_SET).text(text).build();
  }

  public static Action launchApp(String app, List<String> args) {
    return builder(Verb.LAUNCH_APP).app(app).args(args.isEmpty() ? null : args).build();
  }

  public static Action activateWindow(long windowId) {
    return builder(Verb.ACTIVATE_WINDOW).windowId(windowId).build();
  }

  public static Action activateWindowByTitle(String titleFragment) {
    return builder(Verb.ACTIVATE_WINDOW).app(titleFragment).build();
  }

  /** Mutable staging area for an {@link Action}; {@link #build()} runs every check. */
  public static final class Builder {
    private Verb verb;
    private Target target;
    private Target to;
    private PointerButton button;
    private Long durationMs;
    private ObserveSpec observe;
    private String text;
    private String keys;
    private Double dx;
    private Double dy;
    private Long ms;
    private Scope scope;
    private Double fps;
    private Integer maxLongEdge;
    private ImageFormat format;
    private Integer quality;
    private Boolean delta;
    private String resumeStream;
    private String ifNoneMatch;
    private Boolean structured;
    private Boolean diff;
    private Long settleMs;
    private List<String> argv;
    private String shell;
    private String cwd;
    private Map<String, String> env;
    private Long timeoutMs;
    private String stdin;
    private Boolean stream;
    private Boolean pty;
    private String app;
    private List<String> args;
    private Long windowId;

    private Builder(Verb verb) {
      this.verb = verb;
    }

    private Builder(Action a) {
      verb = a.verb; target = a.target; to = a.to; button = a.button; durationMs = a.durationMs;
      observe = a.observe; text = a.text; keys = a.keys; dx = a.dx; dy = a.dy; ms = a.ms; scope = a.scope;
      fps = a.fps; maxLongEdge = a.maxLongEdge; format = a.format; quality = a.quality; delta = a.delta;
      resumeStream = a.resumeStream; ifNoneMatch = a.ifNoneMatch; structured = a.structured; diff = a.diff;
      settleMs = a.settleMs; argv = a.argv; shell = a.shell; cwd = a.cwd; env = a.env; timeoutMs = a.timeoutMs;
      stdin = a.stdin; stream = a.stream; pty = a.pty; app = a.app; args = a.args; windowId = a.windowId;
    }

    public Builder verb(Verb v) { verb = v; return this; }
    public Builder target(Target v) { target = v; return this; }
    public Builder to(Target v) { to = v; return this; }
    public Builder button(PointerButton v) { button = v; return this; }
    public Builder durationMs(Long v) { durationMs = v; return this; }
    public Builder observe(ObserveSpec v) { observe = v; return this; }
    public Builder text(String v) { text = v; return this; }
    public Builder keys(String v) { keys = v; return this; }
    public Builder dx(Double v) { dx = v; return this; }
    public Builder dy(Double v) { dy = v; return this; }
    public Builder ms(Long v) { ms = v; return this; }
    public Builder scope(Scope v) { scope = v; return this; }
    public Builder fps(Double v) { fps = v; return this; }
    public Builder maxLongEdge(Integer v) { maxLongEdge = v; return this; }
    public Builder format(ImageFormat v) { format = v; return this; }
    public Builder quality(Integer v) { quality = v; return this; }
    public Builder delta(Boolean v) { delta = v; return this; }
    public Builder resumeStream(String v) { resumeStream = v; return this; }
    public Builder ifNoneMatch(String v) { ifNoneMatch = v; return this; }
    public Builder structured(Boolean v) { structured = v; return this; }
    public Builder diff(Boolean v) { diff = v; return this; }
    public Builder settleMs(Long v) { settleMs = v; return this; }
    public Builder argv(List<String> v) { argv = v; return this; }
    public Builder shell(String v) { shell = v; return this; }
    public Builder cwd(String v) { cwd = v; return this; }
    public Builder env(Map<String, String> v) { env = v; return this; }
    public Builder timeoutMs(Long v) { timeoutMs = v; return this; }
    public Builder stdin(String v) { stdin = v; return this; }
    public Builder stream(Boolean v) { stream = v; return this; }
    public Builder pty(Boolean v) { pty = v; return this; }
    public Builder app(String v) { app = v; return this; }
    public Builder args(List<String> v) { args = v; return this; }
    public Builder windowId(Long v) { windowId = v; return this; }

    public Action build() {
      return new Action(verb, target, to, button, durationMs, observe, text, keys, dx, dy, ms, scope, fps,
          maxLongEdge, format, quality, delta, resumeStream, ifNoneMatch, structured, diff, settleMs, argv, shell,
          cwd, env, timeoutMs, stdin, stream, pty, app, args, windowId);
    }
  }
}
