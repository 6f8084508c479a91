package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.records.Presentations;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Codex content shapes: message text without image wrappers, hidden context, tool inputs and outputs. */
final class CodexEnvelopes {
  private CodexEnvelopes() {}

  private static final Pattern IMAGE_TAG = Pattern.compile("\\A\\s*</?image\\b[^>]*>\\s*\\z");
  private static final Pattern HIDDEN = Pattern.compile("\\A\\s*(?:<environment_context>|<user_instructions>"
      + "|<INSTRUCTIONS>|# AGENTS\\.md instructions for |<turn_aborted>|<subagent_notification>|<permissions"
      + "|<collaboration_mode>|<user_shell_command>|<skill>|<personality_spec>)");
  private static final Pattern PATCH_FILE = Pattern.compile("\\*\\*\\* (?:Add|Update|Delete) File: (.+)");

  /**
   * The text of a message's content list. Image inputs and the {@code <image>} / {@code </image>}
   * text items that wrap them are removed structurally, so the result matches the event copy.
   */
  static String text(JsonNode content) {
    if (content == null || content.isNull()) {
      return null;
    }
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode item : content) {
      String type = Json.str(item, "type");
      if (type == null || !(type.endsWith("_text") || type.equals("text"))) {
        continue; // input_image, encrypted_content, ...
      }
      String t = Json.str(item, "text");
      if (t == null || IMAGE_TAG.matcher(t).matches()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append(t);
    }
    return sb.toString();
  }

  static boolean isHiddenContext(String text) {
    return text != null && HIDDEN.matcher(text).find();
  }

  /** Tool input as JSON text: argument strings that hold JSON are kept as the JSON they hold. */
  static String inputJson(JsonNode input) {
    if (input == null || input.isNull()) {
      return null;
    }
    if (input.isTextual()) {
      String s = input.asText().strip();
      if (s.startsWith("{") || s.startsWith("[")) {
        try {
          return Surrogates.repair(JsonlScan.MAPPER.readTree(s)).toString();
        } catch (IOException e) {
          return input.toString();
        }
      }
      return input.toString();
    }
    return input.toString();
  }

  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    if (name.startsWith("mcp__") || name.contains("__")) {
      return Presentations.MCP;
    }
    return switch (name) {
      case "exec_command", "shell", "shell_command", "local_shell", "local_shell_call", "run_shell_command",
          "write_stdin", "container.exec" -> Presentations.SHELL;
      case "apply_patch", "edit_file", "write_file" -> Presentations.EDIT;
      case "read_file", "view_image" -> Presentations.READ;
      case "web_search", "web_search_call", "web.run" -> Presentations.WEB;
      case "update_plan" -> Presentations.TODO_LIST;
      case "spawn_agent", "send_input", "wait_agent" -> Presentations.SUBAGENT;
      case "grep", "find", "list_dir", "tool_search_call" -> Presentations.SEARCH;
      default -> Presentations.GENERIC;
    };
  }

  static String filePath(String name, JsonNode input) {
    if (input == null) {
      return null;
    }
    String text = input.isTextual() ? input.asText() : Json.str(input, "patch") != null ? Json.str(input, "patch")
        : Json.str(input, "input");
    if ("apply_patch".equals(name) && text != null) {
      Matcher m = PATCH_FILE.matcher(text);
      return m.find() ? m.group(1).strip() : null;
    }
    if (input.isObject()) {
      return Json.str(input, "path") != null ? Json.str(input, "path") : Json.str(input, "file_path");
    }
    return null;
  }

  record Output(String text, boolean isError) {}

  /** Tool output text, from a string, a content list, or the JSON envelope newer versions write. */
  static Output output(JsonNode output) {
    if (output == null || output.isNull()) {
      return new Output(null, false);
    }
    if (output.isArray()) {
      return new Output(text(output), false);
    }
    JsonNode obj = output;
    if (output.isTextual()) {
      String s = output.asText();
      String t = s.strip();
      if (!t.startsWith("{")) {
        return new Output(s, false);
      }
      try {
        obj = Surrogates.repair(JsonlScan.MAPPER.readTree(t));
      } catch (IOException e) {
        return new Output(s, false);
      }
      if (!obj.has("output")) {
        return new Output(s, false);
      }
    }
    if (obj.isObject()) {
      JsonNode meta = Json.obj(obj, "metadata");
      long exit = meta != null && meta.has("exit_code") ? meta.get("exit_code").asLong() : 0;
      boolean failed = exit != 0 || (obj.has("success") && !obj.get("success").asBoolean(true));
      JsonNode inner = obj.get("output");
      if (inner != null && inner.isTextual()) {
        return new Output(inner.asText(), failed);
      }
      if (obj.has("stdout")) {
        String err = Json.str(obj, "stderr");
        return new Output(Json.str(obj, "stdout") + (err == null || err.isEmpty() ? "" : "\n" + err),
            failed || Json.lng(obj, "exitCode") != 0);
      }
      return new Output(obj.toString(), failed);
    }
    return new Output(output.toString(), false);
  }
}
