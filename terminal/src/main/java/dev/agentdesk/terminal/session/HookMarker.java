package dev.agentdesk.terminal.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An OSC 7770 hook marker: {@code ESC ] 7770 ; key=value ; key=value BEL} (or ST).
 * Keys: {@code state} = busy | idle | awaiting, {@code question} (text for awaiting),
 * {@code intent} (text, optional "(title)" suffix), {@code suggest} (items separated by {@code |}),
 * {@code block} (any value: a Stop hook kept the turn open). Unknown keys are ignored so hooks can
 * grow; values are percent-decoded so they may carry {@code ;}.
 *
 * @param state the declared state, empty when the marker has no valid {@code state} key
 */
record HookMarker(Optional<State> state, String question, String intent, String intentTitle, List<String> suggest,
    boolean block, List<String> problems) {

  enum State { BUSY, IDLE, AWAITING }

  /**
   * Reads the fields the raw OSC scanner split out of one marker. Never throws: a bad state value
   * is reported in {@code problems} and ignored, so a broken hook cannot break the session.
   */
  static HookMarker of(Map<String, String> fields) {
    Map<String, String> pairs = new LinkedHashMap<>();
    fields.forEach((k, v) -> pairs.put(k.trim().toLowerCase(Locale.ROOT), decode(v == null ? "" : v)));
    List<String> problems = new ArrayList<>();
    Optional<State> state = Optional.empty();
    String raw = pairs.get("state");
    if (raw != null) {
      try {
        state = Optional.of(State.valueOf(raw.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        problems.add("unknown state '" + raw + "' (expected busy, idle or awaiting)");
      }
    }
    String intent = blankToNull(pairs.get("intent"));
    String title = null;
    if (intent != null && intent.endsWith(")") && intent.lastIndexOf('(') > 0) {
      title = intent.substring(intent.lastIndexOf('(') + 1, intent.length() - 1).trim();
      intent = intent.substring(0, intent.lastIndexOf('(')).trim();
    }
    List<String> suggest = new ArrayList<>();
    String rawSuggest = pairs.get("suggest");
    if (rawSuggest != null) {
      for (String item : rawSuggest.split("\\|")) {
        if (!item.isBlank()) {
          suggest.add(item.trim());
        }
      }
    }
    return new HookMarker(state, blankToNull(pairs.get("question")), intent, title, List.copyOf(suggest),
        pairs.containsKey("block"), List.copyOf(problems));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** Percent-decoding of {@code %XX}; a malformed escape is kept literally. */
  private static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] in = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '%' && i + 2 < in.length && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
        out.write(hex(in[i + 1]) * 16 + hex(in[i + 2]));
        i += 2;
      } else {
        out.write(in[i]);
      }
    }
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static int hex(byte b) {
    return Character.digit(b, 16);
  }
}
