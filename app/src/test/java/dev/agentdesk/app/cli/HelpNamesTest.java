package dev.agentdesk.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentType;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.transcripts.Provider;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Help texts name every provider and agent the code knows, from the enums (they had fallen behind). */
class HelpNamesTest {
  @Test
  void historyHelpNamesEveryProvider() {
    String help = CliRun.run("history", "--help").out();
    for (Provider p : Provider.values()) {
      assertThat(help).as("history --help").contains(p.title());
    }
    assertThat(help).doesNotContain("Claude Code and Codex transcripts");
    for (String[] cmd : new String[][] {{"history", "sessions", "--help"}, {"history", "search", "--help"},
        {"history", "parse", "--help"}}) {
      String text = CliRun.run(cmd).out();
      for (Provider p : Provider.values()) {
        assertThat(text).as(String.join(" ", cmd)).contains(p.id());
      }
    }
  }

  /** The README's import row and history.md name every provider, and history.md every option of history usage. */
  @Test
  void theDocsNameEveryProviderAndEveryUsageOption() throws java.io.IOException {
    java.nio.file.Path root = java.nio.file.Path.of("").toAbsolutePath().getParent();
    String readme = java.nio.file.Files.readString(root.resolve("README.md"));
    String importRow = readme.lines().filter(l -> l.startsWith("| `history import`")).findFirst().orElseThrow();
    String history = java.nio.file.Files.readString(root.resolve("docs/history.md"));
    String intro = history.substring(history.indexOf("`agentdesk history` reads"),
        history.indexOf("into one canonical record stream"));
    String importCommand = history.lines().filter(l -> l.startsWith("| `history import ")).findFirst().orElseThrow();
    for (Provider p : Provider.values()) {
      assertThat(importRow).as("README's import row").contains(p.title());
      assertThat(intro).as("history.md's first sentence").contains(p.title());
      assertThat(importCommand).as("history.md's import row").contains("--" + p.id() + " DIR");
    }
    String help = CliRun.run("history", "usage", "--help").out();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?<![\\w-])--[a-z][a-z-]+").matcher(help);
    java.util.Set<String> options = new java.util.TreeSet<>();
    while (m.find()) {
      options.add(m.group());
    }
    options.removeAll(java.util.Set.of("--help", "--version"));
    assertThat(options).contains("--mode", "--limits", "--by", "--token-limit");
    for (String o : options) {
      assertThat(history).as("history.md names %s of history usage", o).contains(o);
    }
  }

  @Test
  void agentAndTermHelpNameEveryAgent() {
    String start = CliRun.run("agent", "start", "--help").out().replaceAll("\\s+", " ");
    Arrays.stream(AgentType.values()).forEach(t -> assertThat(start).contains(t.cliName()));
    for (String[] cmd : new String[][] {{"term", "run", "--help"}, {"term", "parse", "--help"}}) {
      String text = CliRun.run(cmd).out().replaceAll("\\s+", " ");
      Arrays.stream(Agent.values()).forEach(a -> assertThat(text).as(String.join(" ", cmd)).contains(a.cliName()));
    }
  }
}
