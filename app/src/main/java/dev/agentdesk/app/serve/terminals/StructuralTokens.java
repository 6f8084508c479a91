package dev.agentdesk.app.serve.terminals;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Removes the agents' structural tokens from text served to clients: an {@code intent: …} line
 * and a {@code suggest: [ A | B ]} line, each at column 0 (optionally after an agent bullet), as
 * the output-parser spec's PWA/REST stripping does. They are instructions to agentdesk, not output
 * for people; the parser has already turned them into events.
 */
public final class StructuralTokens {
  private static final Pattern INTENT = Pattern.compile("^(?:[●⏺•◦]\\s*)?intent:\\s+\\S.*$");
  private static final Pattern SUGGEST = Pattern.compile("^(?:[●⏺•◦]\\s*)?suggest\\s*:\\s*\\[[^\\[\\]]*\\]\\s*$");

  private StructuralTokens() {}

  public static boolean isToken(String line) {
    return INTENT.matcher(line).matches() || SUGGEST.matcher(line).matches();
  }

  /** The lines without token lines; every other line is kept as it is, in order. */
  public static List<String> strip(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    for (String line : lines) {
      if (!isToken(line)) {
        out.add(line);
      }
    }
    return out;
  }
}
