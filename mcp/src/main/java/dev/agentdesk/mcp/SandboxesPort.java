package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The sandboxes (ACI runtimes) registered with a running {@code agentdesk serve}. */
public interface SandboxesPort {
  /** {@code GET /api/sandboxes}: an array of Sandbox objects. */
  JsonNode list();

  /** A screenshot as image bytes. */
  Image screenshot(String id, Integer maxLongEdge, String format);

  /** {@code POST /api/sandboxes/{id}/act} with this body (verb, x, y, text, key, …). */
  JsonNode act(String id, ObjectNode action);

  /**
   * {@code GET /api/sandboxes/{id}/observe}: the accessibility tree as text; {@code settleMs}, when
   * not null, has the runtime wait for the accessibility events to be quiet that long first.
   */
  JsonNode observe(String id, boolean diff, Integer settleMs);

  /** {@code POST /api/sandboxes/{id}/exec}: exit code, stdout and stderr of a command run in the sandbox. */
  JsonNode exec(String id, List<String> argv);

  /** An encoded image and its media type. */
  record Image(byte[] bytes, String mimeType) {
    public Image {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }
  }
}
