package dev.agentdesk.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JSON-RPC errors as this server sends them, on every transport. The SDK answers a call of a tool
 * it does not have with the fixed message "Unknown tool: invalid_tool_name" (the name asked for is
 * only in {@code data}); an agent reads the message, so the message names the tool it asked for
 * and where the real names are.
 */
final class WireErrors {
  private static final Pattern TOOL_NOT_FOUND = Pattern.compile("Tool not found: (.*)", Pattern.DOTALL);

  private WireErrors() {}

  /** A copy of {@code base} that writes JSON-RPC errors as described above. */
  static ObjectMapper mapper(ObjectMapper base) {
    SimpleModule m = new SimpleModule("agentdesk-wire-errors");
    m.addSerializer(McpSchema.JSONRPCResponse.JSONRPCError.class, new JsonSerializer<>() {
      @Override
      public void serialize(McpSchema.JSONRPCResponse.JSONRPCError e, JsonGenerator g, SerializerProvider p)
          throws IOException {
        g.writeStartObject();
        if (e.code() != null) {
          g.writeNumberField("code", e.code());
        }
        g.writeStringField("message", message(e));
        if (e.data() != null) {
          g.writeObjectField("data", e.data());
        }
        g.writeEndObject();
      }
    });
    return base.copy().registerModule(m);
  }

  static String message(McpSchema.JSONRPCResponse.JSONRPCError e) {
    if (e.data() instanceof String data && e.message() != null && e.message().startsWith("Unknown tool")) {
      Matcher name = TOOL_NOT_FOUND.matcher(data);
      if (name.matches()) {
        return "Unknown tool: " + name.group(1) + " (tools/list names this server's tools)";
      }
    }
    return e.message();
  }
}
