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
 * OpenAI Chat Completions: {@code POST /v1/chat/completions} (also without the {@code /v1}
 * prefix, as OpenAI-compatible base URLs are given with or without it). Streamed as
 * {@code chat.completion.chunk} data lines (a role delta, content deltas, one delta per tool call
 * with its arguments, a finish reason, a usage chunk, {@code [DONE]}), or one
 * {@code chat.completion} object. The step is the number of assistant messages after the last user
 * message; usage maps input to {@code prompt_tokens} (cached tokens included, as OpenAI counts
 * them) and cache reads to {@code prompt_tokens_details.cached_tokens}.
 */
final class OpenAiChat implements Dialect {
  private static final AtomicLong IDS = new AtomicLong();

  @Override
  public String name() {
    return "openai-chat";
  }

  @Override
  public boolean serves(String method, String path) {
    return "POST".equals(method) && (path.equals("/v1/chat/completions") || path.equals("/chat/completions"));
  }

  @Override
  public Asked read(String path, Object json) {
    Map<?, ?> body = json instanceof Map<?, ?> m ? m : Map.of();
    List<String> tools = new ArrayList<>();
    if (body.get("tools") instanceof List<?> l) {
      for (Object t : l) {
        if (t instanceof Map<?, ?> tm && tm.get("function") instanceof Map<?, ?> f && f.get("name") instanceof String n) {
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
        } else if ("user".equals(msg.get("role"))) {
          prompt = text(msg.get("content"));
          break;
        }
      }
    }
    return new Asked(body.get("model") instanceof String s ? s : null, Boolean.TRUE.equals(body.get("stream")), tools,
        prompt, prompt == null ? 0 : step);
  }

  /** A message's text: a string, or the {@code text} parts of a content array. */
  static String text(Object content) {
    if (content instanceof String s) {
      return s;
    }
    StringBuilder b = new StringBuilder();
    if (content instanceof List<?> parts) {
      for (Object p : parts) {
        if (p instanceof Map<?, ?> m && m.get("text") instanceof String t) {
          b.append(b.length() == 0 ? "" : "\n").append(t);
        }
      }
    }
    return b.toString();
  }

  @Override
  public boolean answerAuxiliary(String path, Object json, HttpExchange ex) {
    return false;
  }

  @Override
  public void write(Reply reply, boolean stream, String model, HttpExchange ex) throws IOException, InterruptedException {
    String m = model == null ? "gpt-scripted" : model;
    if (reply instanceof Reply.Failure f) {
      ModelServer.sendJson(ex, f.status(), f.headers(), error(f));
      return;
    }
    Reply.Message msg = (Reply.Message) reply;
    String id = "chatcmpl-scripted" + IDS.incrementAndGet();
    String finish = msg.blocks().stream().anyMatch(b -> b instanceof Reply.ToolUse) ? "tool_calls" : "stop";
    if (!stream) {
      StringBuilder calls = new StringBuilder();
      StringBuilder text = new StringBuilder();
      for (Reply.Block b : msg.blocks()) {
        if (b instanceof Reply.Text t) {
          text.append(t.text());
        } else if (b instanceof Reply.ToolUse tu) {
          calls.append(calls.length() == 0 ? "" : ",").append(call(tu, -1));
        }
      }
      ModelServer.sendJson(ex, 200, Map.of(), "{\"id\":\"" + id + "\",\"object\":\"chat.completion\",\"created\":0,"
          + "\"model\":" + Json.quote(m) + ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
          + Json.quote(text.toString()) + (calls.length() == 0 ? "" : ",\"tool_calls\":[" + calls + "]")
          + "},\"finish_reason\":\"" + finish + "\"}],\"usage\":" + usage(msg.usage()) + "}");
      return;
    }
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      String head = "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":" + Json.quote(m)
          + ",\"choices\":[{\"index\":0,\"delta\":";
      data(out, head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
      int call = 0;
      for (Reply.Block b : msg.blocks()) {
        if (b instanceof Reply.Text t) {
          for (String piece : Pieces.of(t.text(), msg.chunks())) {
            Pieces.pause(msg);
            data(out, head + "{\"content\":" + Json.quote(piece) + "},\"finish_reason\":null}]}");
          }
        } else if (b instanceof Reply.ToolUse tu) {
          Pieces.pause(msg);
          data(out, head + "{\"tool_calls\":[" + call(tu, call++) + "]},\"finish_reason\":null}]}");
        }
      }
      data(out, head + "{},\"finish_reason\":\"" + finish + "\"}]}");
      data(out, "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":" + Json.quote(m)
          + ",\"choices\":[],\"usage\":" + usage(msg.usage()) + "}");
      data(out, "[DONE]");
    }
  }

  private static String call(Reply.ToolUse tu, int index) {
    return "{" + (index >= 0 ? "\"index\":" + index + "," : "") + "\"id\":" + Json.quote(tu.id())
        + ",\"type\":\"function\",\"function\":{\"name\":" + Json.quote(tu.name()) + ",\"arguments\":"
        + Json.quote(tu.inputJson()) + "}}";
  }

  static String error(Reply.Failure f) {
    return "{\"error\":{\"message\":" + Json.quote(f.message()) + ",\"type\":" + Json.quote(f.errorType())
        + ",\"param\":null,\"code\":" + Json.quote(f.errorType()) + "}}";
  }

  private static String usage(Reply.Usage u) {
    long prompt = u.input() + u.cacheRead() + u.cacheCreation();
    return "{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + u.output() + ",\"total_tokens\":"
        + (prompt + u.output()) + ",\"prompt_tokens_details\":{\"cached_tokens\":" + u.cacheRead() + "}}";
  }

  private static void data(OutputStream out, String json) throws IOException {
    out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
