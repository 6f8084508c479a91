package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * OpenCode's permission prompt (1.18), drawn in place of its composer behind a {@code ┃} bar:
 *
 * <pre>
 *   ┃  △ Permission required
 *   ┃    # Shell command
 *   ┃
 *   ┃  $ echo hi &gt; out.txt
 *   ┃
 *   ┃   Allow once   Allow always   Reject            ctrl+f fullscreen  ⇆ select  enter confirm
 * </pre>
 *
 * The answers are buttons side by side: Left/Right move the selection ("⇆ select"), Enter confirms;
 * Up/Down and digits do nothing. The selection is shown only by a background colour, which the
 * rows do not carry, so the first button, where OpenCode opens the prompt, is the highlighted one.
 * The title is the heading, the kind of request and what it would run: "Permission required:
 * Shell command: $ echo hi &gt; out.txt".
 */
final class OpenCodePrompts {
  private static final String HEADING = "Permission required";
  /** How many rows a request's body (a long command wraps) may take between heading and buttons. */
  private static final int MAX_BODY = 16;
  private static final Pattern BAR = Pattern.compile("^\\s*[┃│]\\s?");
  /** The key hints right of the buttons start after a wide gap. */
  private static final Pattern HINTS_GAP = Pattern.compile("\\s{5,}");

  private OpenCodePrompts() {}

  /** Whether a changed row may be part of the prompt (most rows are skipped without a regex). */
  static boolean mayBePart(String row) {
    return row.contains(HEADING) || row.contains("Allow once");
  }

  /** The permission prompt on rows {@code [0, end)}, or {@link ChoicePromptDetector.Detection#NONE}. */
  static ChoicePromptDetector.Detection detect(ScreenView screen, int end) {
    for (int b = end - 1; b > 0; b--) {
      List<String> labels = buttons(screen.row(b));
      if (labels == null) {
        continue;
      }
      for (int h = b - 1; h >= Math.max(0, b - MAX_BODY); h--) {
        String text = unbarred(screen.row(h));
        if (text.endsWith(HEADING) && text.length() - HEADING.length() <= 2) {
          return new ChoicePromptDetector.Detection(prompt(screen, h, b, labels), false);
        }
      }
      return ChoicePromptDetector.Detection.NONE;
    }
    return ChoicePromptDetector.Detection.NONE;
  }

  private static ParsedEvent.ChoicePrompt prompt(ScreenView screen, int heading, int buttons, List<String> labels) {
    StringBuilder title = new StringBuilder(HEADING);
    StringBuilder body = new StringBuilder();
    for (int r = heading + 1; r < buttons; r++) {
      String t = unbarred(screen.row(r));
      if (t.isEmpty()) {
        continue;
      }
      if (t.startsWith("# ")) {
        title.append(": ").append(t.substring(2).strip());
      } else {
        body.append(body.length() == 0 ? "" : " ").append(t);
      }
    }
    if (body.length() > 0) {
      title.append(": ").append(body);
    }
    List<ParsedEvent.ChoiceOption> options = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      String l = labels.get(i);
      options.add(new ParsedEvent.ChoiceOption(i + 1, l, i == 0, l.startsWith("Reject") || l.startsWith("Deny"), null));
    }
    return new ParsedEvent.ChoicePrompt(title.toString(), options, null, null, false, true);
  }

  /** The button labels of a row ({@code Allow once   Allow always   Reject …hints}), or null. */
  private static List<String> buttons(String row) {
    if (!row.contains("Allow once")) {
      return null;
    }
    String t = unbarred(row);
    if (!t.startsWith("Allow once")) {
      return null;
    }
    var gap = HINTS_GAP.matcher(t);
    String part = gap.find() ? t.substring(0, gap.start()) : t;
    List<String> labels = new ArrayList<>();
    for (String l : part.split("\\s{2,}")) {
      if (!l.isBlank()) {
        labels.add(l.strip());
      }
    }
    return labels.size() >= 2 && labels.stream().anyMatch(l -> l.startsWith("Reject")) ? labels : null;
  }

  /** A row without OpenCode's left bar and outer blanks; the heading's {@code △} is kept. */
  private static String unbarred(String row) {
    return BAR.matcher(row).replaceFirst("").strip();
  }
}
