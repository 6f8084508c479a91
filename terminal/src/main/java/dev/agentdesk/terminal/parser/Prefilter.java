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

  private Prefilter() {}

  /** {@link #RATE} and/or {@link #ERROR}, case-insensitively. */
  static int scan(String row) {
    int bits = 0;
    int n = row.length();
    for (int i = 0; i < n && bits != (RATE | ERROR); i++) {
      char c = row.charAt(i);
      // Only characters that start a keyword need a closer look; most characters fall through.
      switch (c | 0x20) {
        case 'l' -> bits |= at(row, i, "limit") ? RATE : 0;
        case 'q' -> bits |= at(row, i, "quota") ? RATE : 0;
        case 't' -> bits |= at(row, i, "too many") ? RATE : 0;
        case 'r' -> bits |= (at(row, i, "retry-after") || at(row, i, "rate_limit") ? RATE : 0)
            | (at(row, i, "retrying in") ? ERROR : 0);
        case 'e' -> bits |= (at(row, i, "exhausted") ? RATE : 0) | (at(row, i, "error") ? ERROR : 0);
        case 'a' -> bits |= at(row, i, "api key") ? ERROR : 0;
        case 'o' -> bits |= at(row, i, "oauth") ? ERROR : 0;
        case 'f' -> bits |= at(row, i, "failed") ? ERROR : 0;
        case 's' -> bits |= at(row, i, "status") ? ERROR : 0;
        case 'd' -> bits |= at(row, i, "disconnected") ? ERROR : 0;
        case 'c' -> bits |= at(row, i, "credit") || at(row, i, "connection to") ? ERROR : 0;
        case 'u' -> bits |= at(row, i, "unable to connect") ? ERROR : 0;
        case 'b' -> bits |= at(row, i, "base_resp") ? ERROR : 0;
        case 'p' -> bits |= at(row, i, "provider") ? ERROR : 0;
        default -> {
          if (c == '4' && at(row, i, "429")) {
            bits |= RATE;
          } else if (c == '/' && at(row, i, "/login")) {
            bits |= ERROR;
          }
        }
      }
    }
    return bits;
  }

  private static boolean at(String row, int i, String word) {
    return row.regionMatches(true, i, word, 0, word.length());
  }
}
