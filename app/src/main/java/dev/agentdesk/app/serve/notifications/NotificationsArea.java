package dev.agentdesk.app.serve.notifications;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.agents.AgentSession;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.notify.AutoResume;
import dev.agentdesk.notify.DeliveryStats;
import dev.agentdesk.notify.Notification;
import dev.agentdesk.notify.Notifier;
import dev.agentdesk.notify.NotifyException;
import dev.agentdesk.notify.NotifySettings;
import dev.agentdesk.notify.SessionView;
import dev.agentdesk.notify.SessionWatch;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionListener;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Notifications and auto-resume over HTTP ({@code /api/notifications}, {@code /api/auto-resume})
 * and the wiring of the notify module into the server: terminals and agents hand their states
 * here, browser notifications and auto-resume changes go out on {@code /ws/events}. The logic is
 * the notify module's; this area only connects it.
 */
public final class NotificationsArea implements ApiArea {
  private final EventHub events;
  private final Notifier notifier;
  private final AutoResume autoResume;
  private volatile String baseUrl;
  /** Terminal id → the auto-resume session it types into (the terminal's own id, or its agent's). */
  private final Map<String, String> inputOwners = new ConcurrentHashMap<>();

  /**
   * @throws ServeException {@code BAD_REQUEST} when the settings file is invalid (the message names it)
   */
  public NotificationsArea(ServeConfig.Notifications config, EventHub events) {
    this.events = events;
    try {
      this.notifier = Notifier.start(Notifier.Options.defaults().withWebhooks(config.webhooks())
          .withDesktopBus(config.desktopBus()).withSettingsFile(config.settingsFile()).withBaseUrl(() -> baseUrl),
          this::toBrowser);
    } catch (NotifyException e) {
      throw new ServeException(e.isUserError() ? ServeException.Reason.BAD_REQUEST : ServeException.Reason.UNAVAILABLE,
          e.getMessage(), e);
    }
    this.autoResume = new AutoResume(config.autoResumeAll(), notifier, this::autoResumeChanged);
  }

  private void autoResumeChanged(String session) {
    events.publish(new ServerEvent.AutoResumeChanged(session, AutoResumeJson.of(autoResume, session)));
  }

  /** The dashboard's address for the links in notifications, once the server listens. */
  public void baseUrl(String url) {
    this.baseUrl = url;
  }

  private void toBrowser(Notification n) {
    String page = n.url() == null || !n.url().contains("#") ? "" : n.url().substring(n.url().indexOf('#'));
    events.publish(new ServerEvent.Notify(n.event().code(), n.session(), n.agent(), n.title(), n.text(), n.url(),
        n.at().toString(), page));
  }

  // ---- what terminals and agents call ----

  /** The listener a plain terminal starts with: its states reach the notifier and auto-resume. */
  public SessionListener watchTerminal(String id, String name) {
    return new SessionWatch(id, name, notifier, autoResume);
  }

  /** A plain terminal started: auto-resume may type into it (when switched on). */
  public void trackTerminal(String id, String name, String agent, PtySession pty) {
    inputOwners.put(id, id);
    autoResume.track(id, name, agent, "#/terminals/" + id, AutoResume.target(pty), null);
    autoResume.observe(SessionView.ofTerminal(id, name, pty.state())); // what it showed before it was tracked
  }

  /**
   * An agent session's PTY started (or restarted on resume).
   *
   * @param enabled its own auto-resume switch from the start request, or null to keep what it had
   */
  public void trackAgent(AgentSession s, PtySession pty, Boolean enabled) {
    if (s.terminalId() != null) {
      inputOwners.put(s.terminalId(), s.id());
    }
    autoResume.track(s.id(), s.agent().cliName() + " · " + s.name(), s.agent().cliName(), "#/agents/" + s.id(),
        AutoResume.target(pty), enabled);
    autoResume.observe(SessionView.ofAgent(s));
  }

  /** An agent session's new state. */
  public void observeAgent(AgentSession s) {
    SessionView v = SessionView.ofAgent(s);
    notifier.observe(v);
    autoResume.observe(v);
  }

  /** Input reached terminal {@code terminalId} from a person (socket, REST): no auto-resume now. */
  public void terminalInput(String terminalId) {
    String owner = inputOwners.get(terminalId);
    if (owner != null) {
      autoResume.userInput(owner);
    }
  }

  /** Input reached agent session {@code id} through its API. */
  public void agentInput(String id) {
    autoResume.userInput(id);
  }

  public void forget(String session) {
    notifier.forget(session);
    autoResume.forget(session);
    inputOwners.values().removeIf(session::equals);
  }

  public DeliveryStats stats() {
    return notifier.stats();
  }

  /** The delivery counters as {@code /api/health} and {@code /api/notifications} show them. */
  public Map<String, Object> statsJson() {
    DeliveryStats d = notifier.stats();
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("pending", d.pending());
    m.put("delivered", d.delivered());
    m.put("failed_attempts", d.failedAttempts());
    m.put("dropped", d.dropped());
    m.put("dropped_queue_full", d.droppedQueueFull());
    m.put("last_failure", d.lastFailure());
    return m;
  }

  public Notifier notifier() {
    return notifier;
  }

  // ---- API ----

  /** {@code PUT /api/auto-resume/{session}}. */
  record Switch(Boolean enabled) {}

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/notifications", ctx -> ctx.json(overview()));
    r.put("/api/notifications/settings", ctx -> {
      JsonNode body = Json.read(ctx.body(), JsonNode.class);
      try {
        ctx.json(notifier.updateSettings(NotifySettings.fromJson(body)).toJson());
      } catch (NotifyException e) {
        throw translate(e);
      }
    });
    r.get("/api/auto-resume", ctx -> ctx.json(Map.of("all", autoResume.all(), "sessions",
        autoResume.sessions().stream().sorted().map(s -> AutoResumeJson.of(autoResume, s)).toList())));
    r.get("/api/auto-resume/{session}", ctx -> ctx.json(AutoResumeJson.of(autoResume, known(ctx.pathParam("session")))));
    r.put("/api/auto-resume/{session}", ctx -> {
      String session = known(ctx.pathParam("session"));
      Switch sw = Json.read(ctx.body(), Switch.class);
      try {
        autoResume.setEnabled(session, sw.enabled());
      } catch (NotifyException e) {
        throw translate(e);
      }
      ctx.json(AutoResumeJson.of(autoResume, session));
    });
    r.delete("/api/auto-resume/{session}/plan", ctx -> {
      String session = known(ctx.pathParam("session"));
      if (!autoResume.cancel(session)) {
        throw new ServeException(ServeException.Reason.CONFLICT, "session " + session + " has no scheduled resume");
      }
      ctx.json(AutoResumeJson.of(autoResume, session));
    });
  }

  private String known(String session) {
    if (!autoResume.tracked(session)) {
      throw ServeException.notFound("no running terminal or agent session " + session
          + " (auto-resume knows sessions whose process runs in this server)");
    }
    return session;
  }

  private Map<String, Object> overview() {
    Map<String, Object> o = new java.util.LinkedHashMap<>();
    o.put("settings", notifier.settings().toJson());
    o.put("settings_file", notifier.settingsFile() == null ? null : notifier.settingsFile().toString());
    o.put("channels", Map.of("desktop", notifier.desktopEnabled(), "webhooks",
        notifier.webhooks().stream().map(w -> Map.of("url", w.redacted(), "format", w.format().code())).toList()));
    o.put("delivery", statsJson());
    o.put("auto_resume_all", autoResume.all());
    List<Map<String, Object>> recent = notifier.recent().stream().map(n -> {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("event", n.event().code());
      m.put("session", n.session());
      m.put("agent", n.agent());
      m.put("title", n.title());
      m.put("text", n.text());
      m.put("url", n.url());
      m.put("at", n.at().toString());
      return m;
    }).toList();
    o.put("recent", recent);
    return o;
  }

  private static ServeException translate(NotifyException e) {
    ServeException.Reason reason = switch (e.reason()) {
      case UNKNOWN_SESSION -> ServeException.Reason.NOT_FOUND;
      case IO -> ServeException.Reason.UNAVAILABLE;
      default -> ServeException.Reason.BAD_REQUEST;
    };
    return new ServeException(reason, e.getMessage(), e);
  }

  @Override
  public void close() {
    autoResume.close();
    notifier.close();
  }
}
