package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.desktop.Desktop;
import dev.agentdesk.aci.runtime.exec.ExecRunner;
import dev.agentdesk.aci.runtime.screencast.StreamRegistry;
import dev.agentdesk.aci.wire.Capabilities;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationType;
import dev.agentdesk.aci.wire.Platform;
import dev.agentdesk.aci.wire.ServerInfo;
import dev.agentdesk.aci.wire.TargetKind;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.Welcome;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every session of one runtime shares: the desktop, the exec runner (and so its 4-slot
 * limit), the policy (token, exec on or off), the limits, timers and the welcome it advertises.
 */
public final class SessionHost implements AutoCloseable {
  /** Verbs this build implements on X11; exec joins them only when the operator allows it. */
  private static final Set<Verb> DESKTOP_VERBS = EnumSet.of(Verb.CLICK, Verb.DOUBLE_CLICK, Verb.RIGHT_CLICK,
      Verb.MOVE, Verb.DRAG, Verb.MOUSE_DOWN, Verb.MOUSE_UP, Verb.SCROLL, Verb.TYPE_TEXT, Verb.KEY,
      Verb.SCREENSHOT, Verb.START_SCREENCAST, Verb.STOP_SCREENCAST, Verb.WAIT, Verb.CLIPBOARD_GET, Verb.CLIPBOARD_SET, Verb.LAUNCH_APP, Verb.ACTIVATE_WINDOW);

  final Desktop desktop;
  final ExecRunner exec;
  final SessionLimits limits;
  final Set<Verb> verbs;
  /** The AT-SPI structured-observation engine, or null for a host without one. */
  final AtspiEngine structured;
  final ScheduledExecutorService timers;
  /** Ended screencasts, runtime-wide, so resume_stream works across reconnects. */
  final StreamRegistry streams = new StreamRegistry();
  final ExecutorService pool;
  private final byte[] tokenDigest;
  private final Welcome welcome;

  /**
   * @param token the bearer token every hello must carry, or null for a listener that needs none
   *     (the unix socket, whose file mode is the guard)
   */
  public SessionHost(Desktop desktop, ExecRunner exec, String token, boolean allowExec, SessionLimits limits,
      String version) {
    this(desktop, exec, token, allowExec, limits, version, null);
  }

  /**
   * @param structured the AT-SPI engine behind {@code observe}, {@code invoke_action},
   *     {@code set_value} and element_ref targets (closed with the host), or null for none
   */
  public SessionHost(Desktop desktop, ExecRunner exec, String token, boolean allowExec, SessionLimits limits,
      String version, AtspiEngine structured) {
    this.desktop = desktop;
    this.structured = structured;
    this.exec = exec;
    this.limits = limits;
    this.tokenDigest = token == null ? null : sha256(token);
    EnumSet<Verb> v = EnumSet.copyOf(DESKTOP_VERBS);
    if (allowExec) {
      v.add(Verb.EXEC);
    }
    if (structured != null) {
      v.addAll(EnumSet.of(Verb.OBSERVE, Verb.INVOKE_ACTION, Verb.SET_VALUE));
    }
    this.verbs = Set.copyOf(v);
    List<Verb> ordered = new ArrayList<>();
    for (Verb verb : Verb.values()) {
      if (v.contains(verb)) {
        ordered.add(verb);
      }
    }
    this.welcome = new Welcome(new ServerInfo("agentdesk", version, Platform.LINUX),
        new Capabilities(ordered, structured == null
                ? List.of(TargetKind.POINT_PX, TargetKind.POINT_NORM)
                : List.of(TargetKind.POINT_PX, TargetKind.POINT_NORM, TargetKind.ELEMENT_REF),
            structured == null ? List.of(ObservationType.SCREENSHOT, ObservationType.SCREENCAST)
                : List.of(ObservationType.SCREENSHOT, ObservationType.SCREENCAST, ObservationType.A11Y),
            SessionLimits.MAX_LONG_EDGE, List.of(ImageFormat.PNG, ImageFormat.JPEG), true, true, true,
            structured != null));
    this.timers = Executors.newScheduledThreadPool(1, daemon("aci-timer"));
    this.pool = Executors.newCachedThreadPool(daemon("aci-exec"));
  }

  /** The welcome every authenticated session receives. */
  public Welcome welcome() {
    return welcome;
  }

  /** Whether hello must carry a token. */
  boolean tokenRequired() {
    return tokenDigest != null;
  }

  /** Constant-time comparison of fixed-length digests, so neither content nor length leaks. */
  boolean tokenMatches(String presented) {
    return presented != null && MessageDigest.isEqual(tokenDigest, sha256(presented));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void close() {
    timers.shutdownNow();
    pool.shutdownNow();
    if (structured != null) {
      structured.close();
    }
  }
}
