package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentdesk.transcripts.records.Presentations;

/**
 * Small pieces of the Claude Code line format that {@link ClaudeLineParser} uses in several places:
 * the text of content blocks, the presentation class of a tool, and the bounded id lists the
 * parser carries in the cursor.
 */
final class ClaudeBlocks {
  static final int STATE_LIMIT = 256;

  private ClaudeBlocks() {}

  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    if (name.startsWith("mcp__")) {
      return Presentations.MCP;
    }
    return switch (name) {
      case "Bash", "BashOutput", "KillShell", "KillBash", "bash" -> Presentations.SHELL;
      case "Read", "read" -> Presentations.READ;
      case "Edit", "MultiEdit", "Write", "NotebookEdit", "write", "edit" -> Presentations.EDIT;
      case "Grep", "Glob", "LS", "grep", "glob" -> Presentations.SEARCH;
      case "WebFetch", "WebSearch", "web_search", "web_fetch" -> Presentations.WEB;
      case "TodoWrite", "TodoRead", "TaskCreate", "TaskUpdate", "TaskList" -> Presentations.TODO_LIST;
      case "Skill" -> Presentations.SKILL;
      case "Task", "Agent" -> Presentations.SUBAGENT;
      case "Workflow" -> Presentations.WORKFLOW;
      default -> Presentations.GENERIC;
    };
  }

  static void appendPara(StringBuilder sb, String s) {
    if (s == null || s.isEmpty()) {
      return;
    }
    if (sb.length() > 0) {
      sb.append("\n\n");
    }
    sb.append(s);
  }

  static String resultText(JsonNode content, String fallback) {
    if (content == null || content.isNull()) {
      return fallback;
    }
    if (content.isTextual()) {
      return content.asText();
    }
    if (content.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode c : content) {
        if (c.isTextual()) {
          appendPara(sb, c.asText());
        } else if ("text".equals(Json.str(c, "type"))) {
          appendPara(sb, Json.str(c, "text"));
        } else if ("image".equals(Json.str(c, "type"))) {
          appendPara(sb, "[image]");
        }
      }
      return sb.toString();
    }
    return content.toString();
  }

  static void remember(ArrayNode list, String id) {
    list.add(id);
    while (list.size() > STATE_LIMIT) {
      list.remove(0);
    }
  }

  static boolean contains(ArrayNode list, String id) {
    for (JsonNode n : list) {
      if (id.equals(n.asText())) {
        return true;
      }
    }
    return false;
  }

  static boolean removeFrom(ArrayNode list, String id) {
    for (int i = 0; i < list.size(); i++) {
      if (id.equals(list.get(i).asText())) {
        list.remove(i);
        return true;
      }
    }
    return false;
  }

  @SafeVarargs
  static <T> T firstNonNull(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }
}
