package dev.agentdesk.app.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The words of a short command read without picocli, for the commands that run often and whose
 * start-up is mostly picocli's reflection over their options (~80 ms of a ~300 ms report, ADR 0040).
 * Only the plain forms are read: {@code --name VALUE}, {@code --name=VALUE}, a flag alone, each
 * option once. Anything else (help, version, a typo, a repeated option, a value that looks like an
 * option, a stray word) is not plain, and picocli answers it as it does for every command, so the
 * two paths never disagree about what a command line means.
 */
public final class PlainOptions {
  private PlainOptions() {}

  /**
   * {@code args} as option name to value ({@code ""} for a flag), names as in {@code valued} and
   * {@code flags} ({@code aliases} maps another name, e.g. {@code -z}, to one of them); null when
   * the words are anything but plain.
   */
  public static Map<String, String> parse(String[] args, Set<String> valued, Set<String> flags,
      Map<String, String> aliases) {
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      String value = null;
      int eq = name.indexOf('=');
      if (eq > 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      name = aliases.getOrDefault(name, name);
      if (flags.contains(name)) {
        if (value != null) {
          return null;  // --json=true and the like: picocli's to read
        }
        value = "";
      } else if (!valued.contains(name)) {
        return null;
      } else if (value == null) {
        if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
          return null;
        }
        value = args[++i];
      }
      if (seen.put(name, value) != null) {
        return null;
      }
    }
    return seen;
  }
}
