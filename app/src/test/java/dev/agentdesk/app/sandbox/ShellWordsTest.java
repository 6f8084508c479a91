package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --app CMD} is split as bash would split a simple command (checked against bash itself). */
class ShellWordsTest {
  static final List<String> LINES = List.of(
      "zenity --entry --text 'Your name:'",
      "  xterm   -e   top  ",
      "echo \"a \\\"quoted\\\" word\" 'it''s' x\\ y",
      "printf '%s\\n' \"$HOME\" '$HOME' \\$HOME",
      "a\"b\"'c'd \"\" ''",
      "tab\tsep\\\\x \"back\\slash\" \"nl\\\nx\"",
      "gtk3-widget-factory");

  @Test
  void splitsLikeBash() throws Exception {
    for (String line : LINES) {
      // bash prints each word NUL-terminated, with no expansion (set -f; HOME unset for "$HOME" to stay as we keep it)
      String expected = bashWords(line);
      List<String> ours = ShellWords.split(line);
      if (line.contains("$")) {
        // we do not expand variables: the words keep $HOME where bash would expand the unquoted and double-quoted ones
        assertThat(ours).containsExactly("printf", "%s\\n", "$HOME", "$HOME", "$HOME");
        continue;
      }
      assertThat(String.join("\0", ours) + "\0").as(line).isEqualTo(expected);
    }
  }

  @Test
  void joinedWordsSplitBackToTheSameWords() {
    List<List<String>> cases = List.of(List.of("zenity", "--text", "Your name:"), List.of("a'b", "", "x y", "$HOME", "\\"),
        List.of("plain", "--flag=v,1"));
    for (List<String> words : cases) {
      assertThat(ShellWords.split(ShellWords.join(words))).isEqualTo(words);
    }
    assertThat(ShellWords.join(List.of("zenity", "--text", "Your name:"))).isEqualTo("zenity --text 'Your name:'");
  }

  @Test
  void unterminatedQuotesAndTrailingBackslashAreErrors() {
    assertThatThrownBy(() -> ShellWords.split("zenity --text 'oops")).hasMessageContaining("unterminated single quote");
    assertThatThrownBy(() -> ShellWords.split("zenity --text \"oops")).hasMessageContaining("unterminated double quote");
    assertThatThrownBy(() -> ShellWords.split("zenity \\")).hasMessageContaining("trailing backslash");
    assertThat(ShellWords.split("   ")).isEmpty();
  }

  private static String bashWords(String line) throws Exception {
    Process p = new ProcessBuilder("bash", "-c", "set -f; printf '%s\\0' " + line).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }
}
