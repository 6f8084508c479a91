package dev.agentdesk.app.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServerClient;
import dev.agentdesk.app.serve.TokenFile;
import dev.agentdesk.mcp.AgentsPort;
import dev.agentdesk.mcp.PortException;
import dev.agentdesk.mcp.SandboxesPort;
import dev.agentdesk.mcp.TerminalsPort;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The live ports of {@code agentdesk mcp}: a running {@code agentdesk serve} over its REST API. The
 * client is made afresh when the last attempt failed, so a server started after the MCP client
 * connected (or a token file made later) is found on the next call.
 */
public final class RemotePorts {
  private final Supplier<ServerClient> connect;
  private final String where;
  private volatile ServerClient client;
  /** Why the last attempt to reach the server failed, for {@link #problem()}. */
  private volatile String lastProblem;

  /**
   * @param connect makes a client (reads the token file); may throw
   * @param where the server's address, for messages
   */
  public RemotePorts(Supplier<ServerClient> connect, String where) {
    this.connect = connect;
    this.where = where;
  }

  /** Why the live tools cannot work now, or null when the server answers its health check. */
  public String problem() {
    try {
      ServerClient.Response r = call(c -> c.get("/api/health"));
      return r.ok() ? null : "GET /api/health answered " + r.status();
    } catch (PortException e) {
      return lastProblem;
    }
  }

  private ServerClient client() {
    ServerClient c = client;
    if (c == null) {
      try {
        client = c = connect.get();
      } catch (TokenFile.TokenFileException | ServerClient.ServerClientException e) {
        throw unavailable(e.getMessage());
      }
    }
    return c;
  }

  private PortException unavailable(String why) {
    lastProblem = why;
    return new PortException(PortException.Reason.UNAVAILABLE, why + ". The terminal_*, agent_* and sandbox_*"
        + " tools need a running 'agentdesk serve' (looked for at " + where + "); the history_* tools work without it");
  }

  private <T> T call(Function<ServerClient, T> f) {
    try {
      return f.apply(client());
    } catch (ServerClient.ServerClientException e) {
      client = null;
      throw unavailable(e.getMessage());
    }
  }

  private JsonNode json(ServerClient.Response r) {
    if (!r.ok()) {
      throw error(r.status(), r.body());
    }
    if (r.body() == null || r.body().isEmpty()) {
      return Json.MAPPER.createObjectNode();
    }
    try {
      return Json.MAPPER.readTree(r.body());
    } catch (IOException e) {
      throw new PortException(PortException.Reason.UNAVAILABLE, "the server at " + where + " answered something"
          + " that is not JSON (status " + r.status() + ")", e);
    }
  }

  private static PortException error(int status, String body) {
    try {
      JsonNode e = Json.MAPPER.readTree(body);
      return PortErrors.fromApi(e.path("code").asText(), e.path("message").asText());
    } catch (IOException | RuntimeException notJson) {
      return PortErrors.fromApi("", "the server answered " + status);
    }
  }

  private static String seg(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private JsonNode getJson(String path) {
    return json(call(c -> c.get(path)));
  }

  private JsonNode postJson(String path, JsonNode body) {
    return json(call(c -> c.post(path, body.toString())));
  }

  public TerminalsPort terminals() {
    return new TerminalsPort() {
      @Override
      public JsonNode list() {
        return getJson("/api/terminals");
      }

      @Override
      public JsonNode get(String id) {
        return getJson("/api/terminals/" + seg(id));
      }

      @Override
      public JsonNode snapshot(String id) {
        return getJson("/api/terminals/" + seg(id) + "/snapshot");
      }

      @Override
      public void sendText(String id, String text) {
        postJson("/api/terminals/" + seg(id) + "/input", Json.MAPPER.createObjectNode().put("text", text));
      }

      @Override
      public void sendKey(String id, String key) {
        postJson("/api/terminals/" + seg(id) + "/key", Json.MAPPER.createObjectNode().put("key", key));
      }

      @Override
      public JsonNode start(List<String> argv, String cwd, String agent) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode a = body.putArray("argv");
        argv.forEach(a::add);
        if (cwd != null) {
          body.put("cwd", cwd);
        }
        if (agent != null) {
          body.put("agent", agent);
        }
        return postJson("/api/terminals", body);
      }
    };
  }

  public AgentsPort agents() {
    return new AgentsPort() {
      @Override
      public JsonNode list() {
        return getJson("/api/agents");
      }

      @Override
      public JsonNode start(ObjectNode body) {
        return postJson("/api/agents", body);
      }

      @Override
      public JsonNode diff(String id) {
        return getJson("/api/agents/" + seg(id) + "/diff");
      }
    };
  }

  public SandboxesPort sandboxes() {
    return new SandboxesPort() {
      @Override
      public JsonNode list() {
        return getJson("/api/sandboxes");
      }

      @Override
      public Image screenshot(String id, Integer maxLongEdge, String format) {
        String path = "/api/sandboxes/" + seg(id) + "/screenshot?format=" + format
            + (maxLongEdge == null ? "" : "&max_long_edge=" + maxLongEdge);
        ServerClient.BinaryResponse r = call(c -> c.getBytes(path));
        if (!r.ok()) {
          throw error(r.status(), new String(r.body(), StandardCharsets.UTF_8));
        }
        return new Image(r.body(), r.headers().firstValue("Content-Type").orElse("image/png"));
      }

      @Override
      public JsonNode act(String id, ObjectNode action) {
        return postJson("/api/sandboxes/" + seg(id) + "/act", action);
      }

      @Override
      public JsonNode observe(String id, boolean diff, Integer settleMs) {
        String query = (diff ? "&diff=true" : "") + (settleMs == null ? "" : "&settle_ms=" + settleMs);
        return getJson("/api/sandboxes/" + seg(id) + "/observe" + (query.isEmpty() ? "" : "?" + query.substring(1)));
      }

      @Override
      public JsonNode exec(String id, List<String> argv) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode a = body.putArray("argv");
        argv.forEach(a::add);
        return postJson("/api/sandboxes/" + seg(id) + "/exec", body);
      }
    };
  }
}
