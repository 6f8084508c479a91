package dev.agentdesk.aci.runtime;

import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.atspi.AtspiSettings;
import dev.agentdesk.aci.runtime.exec.ExecRunner;
import dev.agentdesk.aci.runtime.server.AciServer;
import dev.agentdesk.aci.runtime.session.SessionHost;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.runtime.x11.X11Desktop;
import java.util.List;

/**
 * The guest runtime: an X11 desktop driven over ACI v0 on a WebSocket. Start one with
 * {@link #start(Options)}; {@link #close()} stops the listener, kills running execs and releases
 * the display (in that order: see docs/adr/0014-runtime-shutdown.md).
 */
public final class AciRuntime implements AutoCloseable {
  /** The reference runtime's default listen address. */
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8765;

  /**
   * @param token required on every TCP hello; must be non-empty
   * @param allowExec whether the {@code exec} verb is offered (off by default: fail-closed)
   * @param allowedOrigins browser origins admitted at the upgrade; requests without Origin always pass
   * @param display the X display to drive, e.g. {@code ":1"}
   */
  public record Options(String host, int port, String token, boolean allowExec, List<String> allowedOrigins,
      String display, SessionLimits limits, String version) {
    public Options {
      if (token == null || token.isEmpty()) {
        throw AciRuntimeException.badRequest("a TCP listener requires a non-empty token");
      }
      allowedOrigins = List.copyOf(allowedOrigins);
      limits = limits == null ? SessionLimits.defaults() : limits;
    }
  }

  private final X11Desktop desktop;
  private final ExecRunner exec;
  private final SessionHost host;
  private final AciServer server;
  private boolean closed; // guarded by this

  private AciRuntime(X11Desktop desktop, ExecRunner exec, SessionHost host, AciServer server) {
    this.desktop = desktop;
    this.exec = exec;
    this.host = host;
    this.server = server;
  }

  /**
   * Starts with the AT-SPI structured-observation engine configured from this process's
   * environment (DBUS_SESSION_BUS_ADDRESS / AT_SPI_BUS_ADDRESS); without a bus, observe answers
   * typed errors.
   */
  public static AciRuntime start(Options o) {
    return start(o, AtspiSettings.fromEnvironment(System.getenv()));
  }

  /** As {@link #start(Options)}, with the structured engine reaching the buses {@code structured} names. */
  public static AciRuntime start(Options o, AtspiSettings structured) {
    return start(o, structured, WireTap.NONE);
  }

  /** As {@link #start(Options, AtspiSettings)}, showing every message of every connection to {@code tap}. */
  public static AciRuntime start(Options o, AtspiSettings structured, WireTap tap) {
    X11Desktop desktop = X11Desktop.open(o.display());
    ExecRunner exec = new ExecRunner();
    SessionHost host = null;
    try {
      host = new SessionHost(desktop, exec, o.token(), o.allowExec(), o.limits(), o.version(),
          AtspiEngine.create(structured));
      AciServer server = AciServer.start(host, o.host(), o.port(), o.allowedOrigins(), tap);
      return new AciRuntime(desktop, exec, host, server);
    } catch (RuntimeException e) {
      if (host != null) {
        host.close();
      }
      desktop.close();
      throw e;
    }
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return server.port();
  }

  /** Bytes queued for all connections and not yet written (what slow clients cost this runtime). */
  public long queuedOutboundBytes() {
    return server.queuedBytes();
  }

  public SessionHost host() {
    return host;
  }

  /**
   * Stops the runtime, each step after the previous one has finished: refuse connections and end
   * every session, waiting for their action and screencast threads (the server); kill every exec
   * child and reap it; stop the shared timers and pools; only then restore the keymap and close
   * the X connections, on this thread, with no other user left. Idempotent and thread-safe: a
   * second caller waits for the first to finish and returns.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      server.close();
    } finally {
      try {
        exec.close();
        host.close();
      } finally {
        desktop.close();
      }
    }
  }
}
