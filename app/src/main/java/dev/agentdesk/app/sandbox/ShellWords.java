package dev.agentdesk.app.sandbox;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into words the way a POSIX shell does for a simple command: blanks
 * separate words, single quotes keep everything literally, double quotes keep blanks and let a
 * backslash escape {@code $ ` " \} and a newline, a backslash outside quotes escapes the next
 * character. No expansion of any kind ({@code $VAR}, globs, {@code ~}) and no operators: the words
 * become an argv, not a shell script, so {@code --app "zenity --entry --text 'Your name:'"} runs
 * zenity with three arguments.
 */
final class ShellWords {
  private ShellWords() {}

  /** The words of {@code line}; an unterminated quote or a trailing backslash is an error. */
  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n') {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
        i++;
      } else if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unterminated single quote in: " + line);
        }
        word.append(line, i + 1, end);
        inWord = true;
        i = end + 1;
      } else if (c == '"') {
        i++;
        while (true) {
          if (i >= line.length()) {
            throw new IllegalArgumentException("unterminated double quote in: " + line);
          }
          char d = line.charAt(i);
          if (d == '"') {
            i++;
            break;
          }
          if (d == '\\' && i + 1 < line.length() && "$`\"\\\n".indexOf(line.charAt(i + 1)) >= 0) {
            if (line.charAt(i + 1) != '\n') {
              word.append(line.charAt(i + 1));
            }
            i += 2;
          } else {
            word.append(d);
            i++;
          }
        }
        inWord = true;
      } else if (c == '\\') {
        if (i + 1 >= line.length()) {
          throw new IllegalArgumentException("trailing backslash in: " + line);
        }
        if (line.charAt(i + 1) != '\n') {
          word.append(line.charAt(i + 1));
          inWord = true;
        }
        i += 2;
      } else {
        word.append(c);
        inWord = true;
        i++;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /** The words as one line that {@link #split} (and a shell) turns back into the same words. */
  static String join(List<String> words) {
    StringBuilder b = new StringBuilder();
    for (String w : words) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(!w.isEmpty() && w.matches("[A-Za-z0-9_@%+=:,./-]+") ? w : "'" + w.replace("'", "'\\''") + "'");
    }
    return b.toString();
  }
}
