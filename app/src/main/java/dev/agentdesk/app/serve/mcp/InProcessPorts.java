package dev.agentdesk.app.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.agents.AgentsArea;
import dev.agentdesk.app.serve.sandboxes.SandboxesArea;
import dev.agentdesk.app.serve.terminals.TerminalsArea;
import dev.agentdesk.mcp.AgentsPort;
import dev.agentdesk.mcp.PortException;
import dev.agentdesk.mcp.SandboxesPort;
import dev.agentdesk.mcp.TerminalsPort;
import dev.agentdesk.terminal.session.SessionException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The MCP tools' ports over serve's own areas: the same methods the REST routes call, their
 * answers turned into the JSON the routes would send.
 */
final class InProcessPorts {
  private InProcessPorts() {}

  /** Runs an area call; its errors become tool errors, an argument a record refused included. */
  private static <T> T call(Supplier<T> action) {
    try {
      return action.get();
    } catch (ServeException e) {
      throw PortErrors.from(e);
    } catch (IllegalArgumentException | SessionException e) {
      throw new PortException(PortException.Reason.BAD_ARGUMENTS, e.getMessage(), e);
    }
  }

  private static JsonNode json(Supplier<Object> action) {
    return Json.MAPPER.valueToTree(call(action));
  }

  private static void run(Runnable action) {
    call(() -> {
      action.run();
      return null;
    });
  }

  static TerminalsPort terminals(TerminalsArea area) {
    return new TerminalsPort() {
      @Override
      public JsonNode list() {
        return json(area::list);
      }

      @Override
      public JsonNode get(String id) {
        return json(() -> area.terminal(id));
      }

      @Override
      public JsonNode snapshot(String id) {
        return json(() -> area.snapshot(id));
      }

      @Override
      public void sendText(String id, String text) {
        run(() -> area.input(id, text));
      }

      @Override
      public void sendKey(String id, String key) {
        run(() -> area.key(id, key));
      }

      @Override
      public JsonNode start(List<String> argv, String cwd, String agent) {
        return json(() -> area.start(new TerminalsArea.NewTerminal(argv, agent, cwd, null, null, null)));
      }
    };
  }

  static AgentsPort agents(AgentsArea area) {
    return new AgentsPort() {
      @Override
      public JsonNode list() {
        return json(area::list);
      }

      @Override
      public JsonNode start(ObjectNode body) {
        return json(() -> area.start(Json.read(body.toString(), AgentsArea.NewAgent.class)));
      }

      @Override
      public JsonNode diff(String id) {
        return json(() -> area.diff(id));
      }
    };
  }

  static SandboxesPort sandboxes(SandboxesArea area) {
    return new SandboxesPort() {
      @Override
      public JsonNode list() {
        return json(area::list);
      }

      @Override
      public Image screenshot(String id, Integer maxLongEdge, String format) {
        SandboxesArea.Image shot = call(() -> area.screenshot(id, format, null, maxLongEdge));
        return new Image(shot.bytes(), shot.mimeType());
      }

      @Override
      public JsonNode act(String id, ObjectNode action) {
        return json(() -> area.act(id, Json.read(action.toString(), SandboxesArea.ActBody.class)));
      }

      @Override
      public JsonNode observe(String id, boolean diff, Integer settleMs) {
        return json(() -> area.observe(id, diff, settleMs));
      }

      @Override
      public JsonNode exec(String id, List<String> argv) {
        return json(() -> area.exec(id, argv));
      }
    };
  }
}
