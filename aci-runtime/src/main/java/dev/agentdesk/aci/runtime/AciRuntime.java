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
 * the display.
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
  private final SessionHost host;
  private final AciServer server;

  private AciRuntime(X11Desktop desktop, SessionHost host, AciServer server) {
    this.desktop = desktop;
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
    X11Desktop desktop = X11Desktop.open(o.display());
    SessionHost host = null;
    try {
      host = new SessionHost(desktop, new ExecRunner(), o.token(), o.allowExec(), o.limits(), o.version(),
          AtspiEngine.create(structured));
      AciServer server = AciServer.start(host, o.host(), o.port(), o.allowedOrigins());
      return new AciRuntime(desktop, host, server);
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

  @Override
  public void close() {
    server.close();
    host.close();
    desktop.close();
  }
}
