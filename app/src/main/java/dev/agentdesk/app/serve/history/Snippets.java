package dev.agentdesk.app.serve.history;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a search snippet whose matched words the store marks as {@code [word]} into parts, so
 * the browser can highlight them as text without ever parsing markup.
 */
final class Snippets {
  private Snippets() {}

  /** One piece of a snippet; {@code hit} marks a matched term. */
  record Part(String text, boolean hit) {}

  static List<Part> parts(String snippet) {
    List<Part> out = new ArrayList<>();
    if (snippet == null || snippet.isEmpty()) {
      return out;
    }
    int i = 0;
    StringBuilder plain = new StringBuilder();
    while (i < snippet.length()) {
      int open = snippet.indexOf('[', i);
      int close = open < 0 ? -1 : snippet.indexOf(']', open + 1);
      int nested = open < 0 ? -1 : snippet.indexOf('[', open + 1);
      if (open < 0 || close < 0) {
        plain.append(snippet, i, snippet.length());
        break;
      }
      if (nested >= 0 && nested < close) {
        // "[a [b]": the first bracket is literal text.
        plain.append(snippet, i, nested);
        i = nested;
        continue;
      }
      plain.append(snippet, i, open);
      if (close == open + 1) {
        plain.append("[]");
      } else {
        if (plain.length() > 0) {
          out.add(new Part(plain.toString(), false));
          plain.setLength(0);
        }
        out.add(new Part(snippet.substring(open + 1, close), true));
      }
      i = close + 1;
    }
    if (plain.length() > 0) {
      out.add(new Part(plain.toString(), false));
    }
    return out;
  }
}
