package dev.agentdesk.transcripts.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Model names as transcripts and gateways write them, reduced step by step toward the names a price
 * table lists: the name as written first, then without a provider or region prefix
 * ({@code anthropic/}, {@code models/}, {@code us.anthropic.}), without a deployment suffix
 * ({@code -v1:0}, {@code @20250929}, {@code [1m]}), without {@code -latest}, and without a date
 * ({@code -20250929}, {@code -2025-04-16}). A lookup tries each in turn, so a table entry for the
 * dated name wins over the undated one.
 */
final class ModelNames {
  private static final Pattern REGION = Pattern.compile("^(us|eu|apac|global|jp|au)\\.");
  private static final Pattern VENDOR_DOT = Pattern.compile("^(anthropic|openai|google|meta|amazon)\\.");
  private static final Pattern DEPLOYMENT = Pattern.compile("(-v\\d+(:\\d+)?|@[0-9a-z._-]+|\\[[0-9a-z]+\\])$");
  private static final Pattern LATEST = Pattern.compile("-latest$");
  private static final Pattern DATE = Pattern.compile("-(\\d{8}|\\d{4}-\\d{2}-\\d{2})$");

  private ModelNames() {}

  /** The names to look up for {@code raw}, most specific first, without repeats. */
  static List<String> candidates(String raw) {
    List<String> out = new ArrayList<>(4);
    String s = raw.strip();
    add(out, s);
    s = s.toLowerCase(Locale.ROOT);
    int slash = s.lastIndexOf('/');
    if (slash >= 0 && slash < s.length() - 1) {
      s = s.substring(slash + 1);
    }
    s = VENDOR_DOT.matcher(REGION.matcher(s).replaceFirst("")).replaceFirst("");
    add(out, s);
    s = DEPLOYMENT.matcher(s).replaceFirst("");
    add(out, s);
    s = LATEST.matcher(s).replaceFirst("");
    add(out, s);
    s = DATE.matcher(s).replaceFirst("");
    add(out, s);
    return out;
  }

  private static void add(List<String> out, String s) {
    if (!s.isEmpty() && !out.contains(s)) {
      out.add(s);
    }
  }
}
