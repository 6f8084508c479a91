package dev.agentdesk.app.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Assembles the server's areas from a {@link ServeConfig}. */
public final class Serve {
  private Serve() {}

  /** Starts a server with every area this build has. */
  public static AgentdeskServer start(ServeConfig config) {
    EventHub events = new EventHub();
    List<ApiArea> areas = new ArrayList<>();
    Map<String, Boolean> features = new LinkedHashMap<>();
    features.put("history", false);
    features.put("terminals", false);
    features.put("sandboxes", false);
    areas.add(new HealthArea(config, () -> features));
    return AgentdeskServer.start(config, events, areas);
  }
}
