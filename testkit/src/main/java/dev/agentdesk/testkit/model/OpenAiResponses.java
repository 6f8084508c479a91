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
 * The OpenAI Responses API: {@code POST /v1/responses} (or {@code /responses}). Streamed as typed
 * server-sent events: {@code response.created}, per output item {@code response.output_item.added},
 * {@code response.output_text.delta} or {@code response.function_call_arguments.delta},
 * {@code response.output_item.done}, then {@code response.completed} with the usage; otherwise one
 * response object. The prompt is the last {@code user} input item; the step is the number of runs
 * of {@code function_call_output} items after it (one per answered reply).
 */
final class OpenAiResponses implements Dialect {
  private static final AtomicLong IDS = new AtomicLong();

  @Override
  public String name() {
    return "openai-responses";
  }

  @Override
  public boolean serves(String method, String path) {
    return "POST".equals(method) && (path.equals("/v1/responses") || path.equals("/responses"));
  }

  @Override
  public Asked read(String path, Object json) {
    Map<?, ?> body = json instanceof Map<?, ?> m ? m : Map.of();
    List<String> tools = new ArrayList<>();
    if (body.get("tools") instanceof List<?> l) {
      for (Object t : l) {
        if (t instanceof Map<?, ?> tm && tm.get("name") instanceof String n) {
          tools.add(n);
        }
      }
    }
    String prompt = body.get("input") instanceof String s ? s : null;
    int step = 0;
    if (body.get("input") instanceof List<?> items) {
      boolean inOutputs = false;
      for (int i = items.size() - 1; i >= 0; i--) {
        if (!(items.get(i) instanceof Map<?, ?> item)) {
          continue;
        }
        boolean output = "function_call_output".equals(item.get("type"));
        if (output && !inOutputs) {
          step++;
        }
        inOutputs = output;
        if ("user".equals(item.get("role"))) {
          prompt = OpenAiChat.text(item.get("content"));
          break;
        }
      }
    }
    return new Asked(body.get("model") instanceof String s ? s : null, Boolean.TRUE.equals(body.get("stream")), tools,
        prompt, prompt == null ? 0 : step);
  }

  @Override
  public boolean answerAuxiliary(String path, Object json, HttpExchange ex) {
    return false;
  }

  @Override
  public void write(Reply reply, boolean stream, String model, HttpExchange ex) throws IOException, InterruptedException {
    String m = model == null ? "gpt-scripted" : model;
    if (reply instanceof Reply.Failure f) {
      ModelServer.sendJson(ex, f.status(), f.headers(), OpenAiChat.error(f));
      return;
    }
    Reply.Message msg = (Reply.Message) reply;
    String id = "resp_scripted" + IDS.incrementAndGet();
    List<String> items = new ArrayList<>();
    for (int i = 0; i < msg.blocks().size(); i++) {
      items.add(item(msg.blocks().get(i), id, i));
    }
    if (!stream) {
      ModelServer.sendJson(ex, 200, Map.of(), response(id, m, "completed", String.join(",", items), msg.usage()));
      return;
    }
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      event(out, "response.created", "{\"type\":\"response.created\",\"response\":" + response(id, m, "in_progress", "", null) + "}");
      for (int i = 0; i < msg.blocks().size(); i++) {
        Reply.Block b = msg.blocks().get(i);
        String itemId = id + "_" + i;
        if (b instanceof Reply.Text t) {
          event(out, "response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":" + i
              + ",\"item\":{\"type\":\"message\",\"id\":\"" + itemId + "\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}}");
          for (String piece : Pieces.of(t.text(), msg.chunks())) {
            Pieces.pause(msg);
            event(out, "response.output_text.delta", "{\"type\":\"response.output_text.delta\",\"item_id\":\"" + itemId
                + "\",\"output_index\":" + i + ",\"content_index\":0,\"delta\":" + Json.quote(piece) + "}");
          }
        } else if (b instanceof Reply.ToolUse tu) {
          event(out, "response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":" + i
              + ",\"item\":{\"type\":\"function_call\",\"id\":\"" + itemId + "\",\"call_id\":" + Json.quote(tu.id())
              + ",\"name\":" + Json.quote(tu.name()) + ",\"arguments\":\"\",\"status\":\"in_progress\"}}");
          Pieces.pause(msg);
          event(out, "response.function_call_arguments.delta", "{\"type\":\"response.function_call_arguments.delta\","
              + "\"item_id\":\"" + itemId + "\",\"output_index\":" + i + ",\"delta\":" + Json.quote(tu.inputJson()) + "}");
        }
        event(out, "response.output_item.done", "{\"type\":\"response.output_item.done\",\"output_index\":" + i
            + ",\"item\":" + items.get(i) + "}");
      }
      event(out, "response.completed", "{\"type\":\"response.completed\",\"response\":"
          + response(id, m, "completed", String.join(",", items), msg.usage()) + "}");
    }
  }

  private static String item(Reply.Block b, String id, int i) {
    String itemId = id + "_" + i;
    if (b instanceof Reply.ToolUse tu) {
      return "{\"type\":\"function_call\",\"id\":\"" + itemId + "\",\"call_id\":" + Json.quote(tu.id()) + ",\"name\":"
          + Json.quote(tu.name()) + ",\"arguments\":" + Json.quote(tu.inputJson()) + ",\"status\":\"completed\"}";
    }
    return "{\"type\":\"message\",\"id\":\"" + itemId + "\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":"
        + "[{\"type\":\"output_text\",\"text\":" + Json.quote(((Reply.Text) b).text()) + ",\"annotations\":[]}]}";
  }

  private static String response(String id, String model, String status, String output, Reply.Usage u) {
    return "{\"id\":\"" + id + "\",\"object\":\"response\",\"created_at\":0,\"status\":\"" + status + "\",\"model\":"
        + Json.quote(model) + ",\"output\":[" + output + "],\"usage\":" + (u == null ? "null" : usage(u)) + "}";
  }

  private static String usage(Reply.Usage u) {
    long input = u.input() + u.cacheRead() + u.cacheCreation();
    return "{\"input_tokens\":" + input + ",\"input_tokens_details\":{\"cached_tokens\":" + u.cacheRead()
        + "},\"output_tokens\":" + u.output() + ",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":"
        + (input + u.output()) + "}";
  }

  private static void event(OutputStream out, String type, String data) throws IOException {
    out.write(("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
