package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Default transcript folders are found the way the agents find them: $HOME and each tool's variable. */
class HistoryFoldersTest {
  private static List<String> roots(Map<String, String> env) {
    return HistoryFolders.defaults(env).stream().map(r -> r.provider().id() + " " + r.path()).toList();
  }

  @Test
  void homeComesFromTheEnvironmentNotFromJavasUserHome() {
    assertThat(HistoryFolders.home(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h"));
    // unset or relative: the JVM's idea of home
    assertThat(HistoryFolders.home(Map.of())).isEqualTo(Path.of(System.getProperty("user.home")));
    assertThat(HistoryFolders.home(Map.of("HOME", "rel"))).isEqualTo(Path.of(System.getProperty("user.home")));
  }

  @Test
  void withoutToolVariablesEveryFolderIsUnderHome() {
    assertThat(roots(Map.of("HOME", "/h"))).startsWith(
        "claude /h/.config/claude/projects", "claude /h/.claude/projects", "codex /h/.codex/sessions");
    assertThat(HistoryFolders.defaults(Map.of("HOME", "/h"))).extracting(Importer.Root::path)
        .allMatch(p -> p.startsWith(Path.of("/h")));
  }

  @Test
  void eachToolsOwnVariableRelocatesItsFolders() {
    Map<String, String> env = Map.of("HOME", "/h", "CLAUDE_CONFIG_DIR", "/c", "CODEX_HOME", "/x");
    assertThat(roots(env)).startsWith("claude /c/projects", "codex /x/sessions");
    // a relative value is ignored, as the agents ignore it
    assertThat(roots(Map.of("HOME", "/h", "CODEX_HOME", "x"))).contains("codex /h/.codex/sessions");
  }
}
