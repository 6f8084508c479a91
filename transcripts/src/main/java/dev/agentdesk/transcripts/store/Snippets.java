package dev.agentdesk.transcripts.store;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Cuts a short window of text around the first matched word and brackets every matched word in it. */
final class Snippets {
  private static final int BEFORE = 60;
  private static final int LENGTH = 200;
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");

  private Snippets() {}

  static String cut(String text, List<String> words) {
    if (text == null) {
      return "";
    }
    List<String> keys = words.stream().map(Snippets::fold).toList();
    Matcher m = TOKEN.matcher(text);
    int first = -1;
    while (m.find()) {
      if (keys.contains(fold(m.group()))) {
        first = m.start();
        break;
      }
    }
    int from = first < 0 ? 0 : Math.max(0, first - BEFORE);
    int to = Math.min(text.length(), from + LENGTH);
    String window = text.substring(from, to);
    StringBuilder sb = new StringBuilder();
    if (from > 0) {
      sb.append('…');
    }
    Matcher w = TOKEN.matcher(window);
    int last = 0;
    while (w.find()) {
      if (keys.contains(fold(w.group()))) {
        sb.append(window, last, w.start()).append('[').append(w.group()).append(']');
        last = w.end();
      }
    }
    sb.append(window.substring(last));
    if (to < text.length()) {
      sb.append('…');
    }
    return sb.toString().replaceAll("\\s+", " ").strip();
  }

  /** Case- and diacritic-insensitive form, like the index tokenizer's. */
  private static String fold(String s) {
    return Normalizer.normalize(s.toLowerCase(Locale.ROOT), Normalizer.Form.NFD).replaceAll("\\p{M}", "");
  }
}
