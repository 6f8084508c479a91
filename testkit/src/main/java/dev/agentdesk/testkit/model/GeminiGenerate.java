package dev.agentdesk.testkit.model;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini's {@code generateContent}: {@code POST /v1beta/models/<model>:streamGenerateContent}
 * (server-sent {@code data:} lines when {@code alt=sse}, as the Gemini CLI asks; the model's parts
 * one response each, the last with {@code finishReason} and {@code usageMetadata}) and
 * {@code :generateContent} (one response). The prompt is the last {@code user} content with a text
 * part of its own (a {@code functionResponse} is a tool result); the step is the number of
 * {@code model} contents after it. Cache reads are {@code cachedContentTokenCount}, included in
 * {@code promptTokenCount} as Gemini counts them.
 */
final class GeminiGenerate implements Dialect {
  private static final Pattern PATH = Pattern.compile("^/v1(?:beta|alpha)?/models/([^/:]+):(streamGenerateContent|generateContent)$");

  @Override
  public String name() {
    return "gemini-generate";
  }

  @Override
  public boolean serves(String method, String path) {
    return "POST".equals(method) && PATH.matcher(path).matches();
  }

  @Override
  public Asked read(String path, Object json) {
    Matcher pm = PATH.matcher(path);
    String model = pm.matches() ? pm.group(1) : null;
    boolean stream = pm.matches() && pm.group(2).startsWith("stream");
    Map<?, ?> body = json instanceof Map<?, ?> m ? m : Map.of();
    List<String> tools = new ArrayList<>();
    if (body.get("tools") instanceof List<?> l) {
      for (Object t : l) {
        if (t instanceof Map<?, ?> tm && tm.get("functionDeclarations") instanceof List<?> decls) {
          for (Object d : decls) {
            if (d instanceof Map<?, ?> dm && dm.get("name") instanceof String n) {
              tools.add(n);
            }
          }
        }
      }
    }
    String prompt = null;
    int step = 0;
    if (body.get("contents") instanceof List<?> contents) {
      for (int i = contents.size() - 1; i >= 0; i--) {
        if (!(contents.get(i) instanceof Map<?, ?> c)) {
          continue;
        }
        if ("model".equals(c.get("role"))) {
          step++;
          continue;
        }
        String text = promptText(c.get("parts"));
        if (text != null) {
          prompt = text;
          break;
        }
      }
    }
    return new Asked(model, stream, tools, prompt, prompt == null ? 0 : step);
  }

  private static String promptText(Object parts) {
    if (!(parts instanceof List<?> l)) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (Object p : l) {
      if (p instanceof Map<?, ?> m) {
        if (m.containsKey("functionResponse")) {
          return null;
        }
        if (m.get("text") instanceof String t) {
          b.append(b.length() == 0 ? "" : "\n").append(t);
        }
      }
    }
    return b.length() == 0 ? null : b.toString();
  }

  @Override
  public boolean answerAuxiliary(String path, Object json, HttpExchange ex) {
    return false;
  }

  @Override
  public void write(Reply reply, boolean stream, String model, HttpExchange ex) throws IOException, InterruptedException {
    if (reply instanceof Reply.Failure f) {
      ModelServer.sendJson(ex, f.status(), f.headers(), "{\"error\":{\"code\":" + f.status() + ",\"message\":"
          + Json.quote(f.message()) + ",\"status\":" + Json.quote(f.errorType()) + "}}");
      return;
    }
    Reply.Message msg = (Reply.Message) reply;
    String finish = "STOP";
    List<String> parts = new ArrayList<>();
    for (Reply.Block b : msg.blocks()) {
      if (b instanceof Reply.Text t) {
        for (String piece : stream ? Pieces.of(t.text(), msg.chunks()) : List.of(t.text())) {
          parts.add("{\"text\":" + Json.quote(piece) + "}");
        }
      } else if (b instanceof Reply.ToolUse tu) {
        parts.add("{\"functionCall\":{\"name\":" + Json.quote(tu.name()) + ",\"args\":" + tu.inputJson() + "}}");
      }
    }
    String version = model == null ? "gemini-scripted" : model;
    if (!stream) {
      ModelServer.sendJson(ex, 200, Map.of(), chunk(String.join(",", parts), finish, msg.usage(), version));
      return;
    }
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      for (int i = 0; i < parts.size(); i++) {
        Pieces.pause(msg);
        boolean last = i == parts.size() - 1;
        data(out, chunk(parts.get(i), last ? finish : null, last ? msg.usage() : null, version));
      }
      if (parts.isEmpty()) {
        data(out, chunk("", finish, msg.usage(), version));
      }
    }
  }

  private static String chunk(String parts, String finish, Reply.Usage u, String version) {
    String usage = "";
    if (u != null) {
      long prompt = u.input() + u.cacheRead() + u.cacheCreation();
      usage = ",\"usageMetadata\":{\"promptTokenCount\":" + prompt + ",\"candidatesTokenCount\":" + u.output()
          + ",\"cachedContentTokenCount\":" + u.cacheRead() + ",\"totalTokenCount\":" + (prompt + u.output()) + "}";
    }
    return "{\"candidates\":[{\"content\":{\"parts\":[" + parts + "],\"role\":\"model\"},\"index\":0"
        + (finish == null ? "" : ",\"finishReason\":\"" + finish + "\"") + "}]" + usage + ",\"modelVersion\":"
        + Json.quote(version) + "}";
  }

  private static void data(OutputStream out, String json) throws IOException {
    out.write(("data: " + json + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
