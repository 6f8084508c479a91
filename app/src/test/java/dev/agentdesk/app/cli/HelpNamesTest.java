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
