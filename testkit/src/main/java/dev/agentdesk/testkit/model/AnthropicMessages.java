package dev.agentdesk.testkit.model;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Anthropic Messages API: {@code POST /v1/messages} (server-sent events when {@code stream} is
 * true, one JSON message otherwise) and {@code POST /v1/messages/count_tokens}. Events and fields
 * follow the API's streaming reference: {@code message_start} (usage with input and cache counts),
 * {@code content_block_start}/{@code _delta}/{@code _stop} per block ({@code text_delta},
 * {@code input_json_delta}), {@code message_delta} (stop reason, final usage), {@code message_stop}.
 */
final class AnthropicMessages implements Dialect {
  private static final AtomicLong IDS = new AtomicLong();

  @Override
  public String name() {
    return "anthropic-messages";
  }

  @Override
  public boolean serves(String method, String path) {
    return "POST".equals(method) && (path.equals("/v1/messages") || path.equals("/v1/messages/count_tokens"));
  }

  @Override
  public Asked read(String path, Object json) {
    Map<?, ?> body = json instanceof Map<?, ?> m ? m : Map.of();
    String model = body.get("model") instanceof String s ? s : null;
    boolean stream = Boolean.TRUE.equals(body.get("stream"));
    List<String> tools = new ArrayList<>();
    if (body.get("tools") instanceof List<?> l) {
      for (Object t : l) {
        if (t instanceof Map<?, ?> tm && tm.get("name") instanceof String n) {
          tools.add(n);
        }
      }
    }
    String prompt = null;
    int step = 0;
    if (body.get("messages") instanceof List<?> messages) {
      for (int i = messages.size() - 1; i >= 0; i--) {
        if (!(messages.get(i) instanceof Map<?, ?> msg)) {
          continue;
        }
        if ("assistant".equals(msg.get("role"))) {
          step++;
          continue;
        }
        if (!"user".equals(msg.get("role"))) {
          continue; // 2.1.328 also sends role "system" messages after the prompt
        }
        String text = promptText(msg.get("content"));
        if (text != null) {
          prompt = text;
          break;
        }
      }
      if (prompt == null) {
        step = 0;
      }
    }
    return new Asked(model, stream, tools, prompt, step);
  }

  /** The text of a user message that is a prompt (not a tool result), or null. */
  private static String promptText(Object content) {
    if (content instanceof String s) {
      return s;
    }
    if (!(content instanceof List<?> blocks)) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (Object o : blocks) {
      if (!(o instanceof Map<?, ?> block)) {
        continue;
      }
      if ("tool_result".equals(block.get("type"))) {
        return null;
      }
      if ("text".equals(block.get("type")) && block.get("text") instanceof String t) {
        if (b.length() > 0) {
          b.append('\n');
        }
        b.append(t);
      }
    }
    return b.length() == 0 ? null : b.toString();
  }

  @Override
  public boolean answerAuxiliary(String path, Object json, HttpExchange ex) throws IOException {
    if (!path.endsWith("/count_tokens")) {
      return false;
    }
    ModelServer.sendJson(ex, 200, Map.of(), "{\"input_tokens\":" + Math.max(1, String.valueOf(json).length() / 4) + "}");
    return true;
  }

  @Override
  public void write(Reply reply, boolean stream, String model, HttpExchange ex) throws IOException, InterruptedException {
    String m = model == null ? "claude-scripted" : model;
    if (reply instanceof Reply.Failure f) {
      String body = "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(f.errorType()) + ",\"message\":"
          + Json.quote(f.message()) + "},\"request_id\":\"req_scripted" + IDS.incrementAndGet() + "\"}";
      ModelServer.sendJson(ex, f.status(), f.headers(), body);
      return;
    }
    Reply.Message msg = (Reply.Message) reply;
    String id = "msg_scripted" + IDS.incrementAndGet();
    if (!stream) {
      ModelServer.sendJson(ex, 200, Map.of(), whole(msg, id, m));
      return;
    }
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.getResponseHeaders().set("Cache-Control", "no-cache");
    ex.getResponseHeaders().set("request-id", "req_" + id);
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      Reply.Usage u = msg.usage();
      event(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"" + id
          + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + Json.quote(m)
          + ",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + u.input()
          + ",\"cache_creation_input_tokens\":" + u.cacheCreation() + ",\"cache_read_input_tokens\":" + u.cacheRead()
          + ",\"output_tokens\":1}}}");
      for (int i = 0; i < msg.blocks().size(); i++) {
        Reply.Block b = msg.blocks().get(i);
        if (b instanceof Reply.Text t) {
          event(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":" + i
              + ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
          for (String piece : Pieces.of(t.text(), msg.chunks())) {
            Pieces.pause(msg);
            event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + i
                + ",\"delta\":{\"type\":\"text_delta\",\"text\":" + Json.quote(piece) + "}}");
          }
        } else if (b instanceof Reply.ToolUse tu) {
          event(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":" + i
              + ",\"content_block\":{\"type\":\"tool_use\",\"id\":" + Json.quote(tu.id()) + ",\"name\":"
              + Json.quote(tu.name()) + ",\"input\":{}}}");
          Pieces.pause(msg);
          event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + i
              + ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + Json.quote(tu.inputJson()) + "}}");
        }
        event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + i + "}");
      }
      event(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":" + Json.quote(msg.stopReason())
          + ",\"stop_sequence\":null},\"usage\":" + usage(u) + "}");
      event(out, "message_stop", "{\"type\":\"message_stop\"}");
    }
  }

  private static String whole(Reply.Message msg, String id, String model) {
    StringBuilder content = new StringBuilder();
    for (Reply.Block b : msg.blocks()) {
      if (content.length() > 0) {
        content.append(',');
      }
      if (b instanceof Reply.Text t) {
        content.append("{\"type\":\"text\",\"text\":").append(Json.quote(t.text())).append('}');
      } else if (b instanceof Reply.ToolUse tu) {
        content.append("{\"type\":\"tool_use\",\"id\":").append(Json.quote(tu.id())).append(",\"name\":")
            .append(Json.quote(tu.name())).append(",\"input\":").append(tu.inputJson()).append('}');
      }
    }
    return "{\"id\":\"" + id + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + Json.quote(model)
        + ",\"content\":[" + content + "],\"stop_reason\":" + Json.quote(msg.stopReason())
        + ",\"stop_sequence\":null,\"usage\":" + usage(msg.usage()) + "}";
  }

  private static String usage(Reply.Usage u) {
    return "{\"input_tokens\":" + u.input() + ",\"cache_creation_input_tokens\":" + u.cacheCreation()
        + ",\"cache_read_input_tokens\":" + u.cacheRead() + ",\"output_tokens\":" + u.output() + "}";
  }

  private static void event(OutputStream out, String type, String data) throws IOException {
    out.write(("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
