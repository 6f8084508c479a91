package dev.agentdesk.terminal.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The payload of an OSC 7770 hook marker: {@code ESC ] 7770 ; key=value ; key=value BEL} (or ST).
 * Keys: {@code state} = busy | idle | awaiting, {@code question} (text for awaiting),
 * {@code intent} (text, optional "(title)" suffix), {@code suggest} (items separated by {@code |}),
 * {@code block} (any value: a Stop hook kept the turn open). Unknown keys are ignored so hooks can
 * grow; values are percent-decoded so they may carry {@code ;}.
 *
 * @param state the declared state, empty when the marker has no valid {@code state} key
 */
record HookMarker(Optional<State> state, String question, String intent, String intentTitle, List<String> suggest,
    boolean block, List<String> problems) {

  /** OSC number of hook markers. */
  static final int OSC_NUMBER = 7770;

  enum State { BUSY, IDLE, AWAITING }

  /**
   * Parses the text after {@code 7770;}. Never throws: malformed pairs are reported in
   * {@code problems} and skipped, so a broken hook cannot break the session.
   */
  static HookMarker parse(String payload) {
    Map<String, String> pairs = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String part : payload.split(";")) {
      if (part.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        problems.add("not key=value: '" + part + "'");
        continue;
      }
      pairs.put(part.substring(0, eq).trim().toLowerCase(Locale.ROOT), decode(part.substring(eq + 1)));
    }
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
