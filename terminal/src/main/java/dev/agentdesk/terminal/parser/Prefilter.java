package dev.agentdesk.terminal.parser;

/**
 * One allocation-free pass over a row that tells whether the rate-limit or API-error rules could
 * match at all. Most rows are chat text or redraws that contain none of the keywords, and the rules
 * themselves are a few dozen regexes; lower-casing every row first showed up as the top cost.
 */
final class Prefilter {
  /** Bit set by {@link #scan} when a rate-limit keyword is present. */
  static final int RATE = 1;
  /** Bit set by {@link #scan} when an API-error keyword is present. */
  static final int ERROR = 2;

  private static final String[] RATE_WORDS = {"limit", "429", "quota", "exhausted", "too many", "retry-after", "rate_limit"};
  private static final String[] ERROR_WORDS = {"error", "api key", "oauth", "/login", "failed", "status", "disconnected",
      "credit", "base_resp"};

  private Prefilter() {}

  /** {@link #RATE} and/or {@link #ERROR}, case-insensitively. */
  static int scan(String row) {
    int bits = 0;
    int n = row.length();
    for (int i = 0; i < n && bits != (RATE | ERROR); i++) {
      char c = row.charAt(i);
      char lc = c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
      if ((bits & RATE) == 0 && startsAny(row, i, lc, RATE_WORDS)) {
        bits |= RATE;
      }
      if ((bits & ERROR) == 0 && startsAny(row, i, lc, ERROR_WORDS)) {
        bits |= ERROR;
      }
    }
    return bits;
  }

  private static boolean startsAny(String row, int at, char first, String[] words) {
    for (String w : words) {
      if (w.charAt(0) == first && row.regionMatches(true, at, w, 0, w.length())) {
        return true;
      }
    }
    return false;
  }
}
