package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.regex.Pattern;

/**
 * Claude Code's prompt queue ({@code queue-operation} lines): what the user typed while the agent
 * was busy, and background-task notifications waiting for the model. A queued prompt reaches the
 * conversation in one of three ways, and the transcript says which:
 *
 * <ul>
 *   <li>{@code enqueue} (with {@code content}) puts it at the back;
 *   <li>{@code dequeue} (no content) takes the front, and the very next {@code user} line carries the
 *       prompt, so the queue shows nothing of its own (it would count the prompt twice);
 *   <li>{@code remove} takes it out because it was put into the running turn. Releases that write
 *       {@code content} on it also write the prompt as a {@code queued_command} attachment, which the
 *       parser already shows; releases seen before (2.0.76, 2.1.38, 2.1.39) write neither, so the removed
 *       prompt is in no other line and {@link #remove} hands it back to be shown;
 *   <li>{@code popAll} clears the queue (the prompts went back into the input box).
 * </ul>
 *
 * A content-less {@code remove} does not say which prompt it took. It takes the oldest typed prompt
 * (a notification waiting beside it is often consumed another way, by a tool, and never leaves the
 * queue), else the oldest entry. A slash command taken out this way is not shown: it ran as a
 * command, which writes its own lines (2.1.38: {@code /mcp} queued, removed, then its command line).
 * A prompt that arrives as a user line or an attachment leaves the queue too.
 *
 * <p>The queue is carried in the cursor, bounded to {@link #LIMIT} entries. A typed prompt is kept
 * whole (it may have to be shown); a notification (hidden transport context, up to 100 KB) or a
 * prompt longer than {@link #KEPT_CHARS} is kept as a digest, which holds its place in the queue and
 * matches its text, so the cursor stays small.
 */
final class ClaudeQueue {
  static final int LIMIT = 32;
  /** Longest prompt kept whole in the carry-over. */
  static final int KEPT_CHARS = 16_384;
  /** The first character of a digest entry (never the first of a prompt that is kept). */
  private static final char DIGEST = '\u0001';
  /** A queued slash command ("/mcp", "/model opus"): run as a command, which writes its own lines. */
  private static final Pattern SLASH_COMMAND = Pattern.compile("\\s*/[\\w:-]+( [^\\n]*)?\\s*");
  /** Queued texts, oldest first. */
  private final ArrayNode items;

  ClaudeQueue(JsonNode state) {
    items = state instanceof ArrayNode a ? a : JsonlScan.MAPPER.createArrayNode();
  }

  ArrayNode state() {
    return items;
  }

  /**
   * Applies one {@code queue-operation} line; returns the prompt it put into the conversation that no
   * other line of the file carries (to be shown as the user's), or null.
   */
  String apply(JsonNode line) {
    String op = Json.str(line, "operation");
    String content = Json.str(line, "content");
    if (op == null) {
      return null;
    }
    switch (op) {
      case "enqueue" -> {
        if (content != null) {
          items.add(entry(content));
          while (items.size() > LIMIT) {
            items.remove(0);
          }
        }
        return null;
      }
      case "dequeue" -> {
        if (!items.isEmpty()) {
          items.remove(0);
        }
        return null;
      }
      case "remove" -> {
        if (content != null) {
          delivered(content);
          return null;
        }
        return takeForRemove();
      }
      case "popAll" -> {
        items.removeAll();
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  /** A prompt reached the conversation through its own line: it is no longer queued. */
  void delivered(String text) {
    if (text == null || items.isEmpty()) {
      return;
    }
    String key = entry(text);
    for (int i = 0; i < items.size(); i++) {
      if (key.equals(items.get(i).asText())) {
        items.remove(i);
        return;
      }
    }
  }

  /** What the queue keeps of {@code text}: the text itself, or a digest of it. */
  private static String entry(String text) {
    if (!text.isEmpty() && text.length() <= KEPT_CHARS && text.charAt(0) != DIGEST
        && ClaudeEnvelopes.split(text).visible() != null) {
      return text;
    }
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return DIGEST + java.util.HexFormat.of().formatHex(d, 0, 16);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  private String takeForRemove() {
    if (items.isEmpty()) {
      return null;
    }
    int pick = 0;
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i).asText().charAt(0) != DIGEST) {
        pick = i;
        break;
      }
    }
    String taken = items.remove(pick).asText();
    // a digest (a notification, hidden anyway) cannot be shown; a slash command showed by its own lines
    return taken.charAt(0) == DIGEST || SLASH_COMMAND.matcher(taken).matches() ? null : taken;
  }
}
