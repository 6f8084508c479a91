package dev.agentdesk.app.serve;

import dev.agentdesk.app.serve.agents.AgentCost;
import dev.agentdesk.app.serve.agents.AgentsArea;
import dev.agentdesk.app.serve.history.HistoryArea;
import dev.agentdesk.app.serve.notifications.NotificationsArea;
import dev.agentdesk.app.serve.mcp.McpArea;
import dev.agentdesk.app.serve.recordings.RecordingsArea;
import dev.agentdesk.app.serve.sandboxes.SandboxesArea;
import dev.agentdesk.app.serve.terminals.TerminalsArea;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Assembles the server's areas from a {@link ServeConfig}. */
public final class Serve {
  private Serve() {}

  /** Starts a server with every area this build has. */
  public static AgentdeskServer start(ServeConfig config) {
    return start(config, System.getenv());
  }

  /**
   * Starts a server whose agents start with {@code agentEnv} (PATH finds their CLIs, HOME their
   * transcripts).
   */
  public static AgentdeskServer start(ServeConfig config, Map<String, String> agentEnv) {
    EventHub events = new EventHub();
    List<ApiArea> areas = new ArrayList<>();
    Map<String, Boolean> features = new LinkedHashMap<>();
    NotificationsArea[] notifications = {null};
    areas.add(new HealthArea(config, () -> features,
        () -> notifications[0] == null ? null : notifications[0].statsJson()));
    try {
      notifications[0] = new NotificationsArea(config.notifications(), events);
      areas.add(notifications[0]);
      features.put("notifications", true);
      HistoryArea history = new HistoryArea(config, events);
      areas.add(history);
      features.put("history", true);
      TerminalsArea terminals = new TerminalsArea(events, config.dataDir(), notifications[0], history::watchLimits);
      areas.add(terminals);
      features.put("terminals", true);
      AgentsArea agents = new AgentsArea(config.dataDir(), agentEnv, events, terminals, id -> {
        HistoryArea.SessionCost c = history.cost(id);
        return new AgentCost(c.usd(), c.recordedUsd());
      }, notifications[0]);
      areas.add(agents);
      features.put("agents", true);
      SandboxesArea sandboxes = new SandboxesArea(events);
      areas.add(sandboxes);
      features.put("sandboxes", true);
      areas.add(new RecordingsArea(config.recordings()));
      features.put("recordings", true);
      areas.add(new McpArea(config, terminals, agents, sandboxes));
      features.put("mcp", true);
    } catch (RuntimeException e) {
      // Whatever was opened before the failure is closed again, newest first.
      for (int i = areas.size() - 1; i >= 0; i--) {
        areas.get(i).close();
      }
      throw e;
    }
    // From here the server owns the areas and closes them if it cannot start.
    AgentdeskServer server = AgentdeskServer.start(config, events, areas);
    notifications[0].baseUrl(dashboardUrl(config.bind(), server.port()));
    return server;
  }

  /** The dashboard's address without the token (a browser signed in before has its cookie). */
  public static String dashboardUrl(String bind, int port) {
    String host = bind.contains(":") ? "[" + bind + "]" : bind;
    if ("0.0.0.0".equals(bind) || "::".equals(bind)) {
      host = "127.0.0.1";
    }
    return "http://" + host + ":" + port + "/";
  }
}
