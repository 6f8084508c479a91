package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Lone UTF-16 surrogates in provider JSON. JSON text may spell half of a surrogate pair as an
 * escape ({@code "\ud83d"}, e.g. an emoji cut in two by a truncating tool); the parser then yields
 * a string that is not Unicode text. Such a string cannot be stored as UTF-8 (the database would
 * keep '?' and a persisted detail would no longer equal the fresh one), so every lone surrogate
 * becomes U+FFFD, the replacement character, before any record sees it.
 */
final class Surrogates {
  private Surrogates() {}

  /**
   * Whether the line's bytes contain an escape of a surrogate ({@code \\uD800}–{@code \\uDFFF});
   * only such lines can produce one (raw bytes of a surrogate are invalid UTF-8 and rejected).
   */
  static boolean mayHaveEscape(byte[] buf, int from, int to) {
    for (int i = from; i + 5 < to; i++) {
      if (buf[i] == '\\' && buf[i + 1] == 'u' && (buf[i + 2] | 0x20) == 'd') {
        int c = buf[i + 3] | 0x20;
        if ((c >= '8' && c <= '9') || (c >= 'a' && c <= 'f')) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code node} with every lone surrogate in its strings replaced (containers are changed in place). */
  static JsonNode repair(JsonNode node) {
    if (node instanceof TextNode t) {
      String fixed = repair(t.textValue());
      return fixed == t.textValue() ? t : TextNode.valueOf(fixed);
    }
    if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        a.set(i, repair(a.get(i)));
      }
      return a;
    }
    if (node instanceof ObjectNode o) {
      // (Field names need nothing: the parser refuses a broken pair in a name as invalid JSON.)
      for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        f.setValue(repair(f.getValue()));
      }
      return o;
    }
    return node;
  }

  /** {@code s} itself when it is Unicode text, else a copy with U+FFFD for each lone surrogate. */
  static String repair(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean lone = Character.isHighSurrogate(c)
          ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
          : Character.isLowSurrogate(c);
      if (Character.isHighSurrogate(c) && !lone) {
        if (out != null) {
          out.append(c).append(s.charAt(i + 1));
        }
        i++;
        continue;
      }
      if (lone && out == null) {
        out = new StringBuilder(s.length()).append(s, 0, i);
      }
      if (out != null) {
        out.append(lone ? '\uFFFD' : c);
      }
    }
    return out == null ? s : out.toString();
  }
}
