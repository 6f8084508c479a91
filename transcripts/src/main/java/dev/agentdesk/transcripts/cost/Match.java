package dev.agentdesk.transcripts.cost;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which model names a price entry covers, in the genai-prices data vocabulary: {@code equals},
 * {@code starts_with}, {@code ends_with}, {@code contains} (all case-insensitive), {@code regex}, and
 * {@code or} / {@code and} of clauses.
 */
sealed interface Match {
  boolean test(String name);

  record Equals(String s) implements Match {
    public boolean test(String name) {
      return name.equalsIgnoreCase(s);
    }
  }

  record StartsWith(String s) implements Match {
    public boolean test(String name) {
      return name.toLowerCase(Locale.ROOT).startsWith(s.toLowerCase(Locale.ROOT));
    }
  }

  record EndsWith(String s) implements Match {
    public boolean test(String name) {
      return name.toLowerCase(Locale.ROOT).endsWith(s.toLowerCase(Locale.ROOT));
    }
  }

  record Contains(String s) implements Match {
    public boolean test(String name) {
      return name.toLowerCase(Locale.ROOT).contains(s.toLowerCase(Locale.ROOT));
    }
  }

  record Regex(Pattern p) implements Match {
    public boolean test(String name) {
      return p.matcher(name).find();
    }
  }

  record Or(List<Match> any) implements Match {
    public boolean test(String name) {
      return any.stream().anyMatch(m -> m.test(name));
    }
  }

  record And(List<Match> all) implements Match {
    public boolean test(String name) {
      return all.stream().allMatch(m -> m.test(name));
    }
  }
}
