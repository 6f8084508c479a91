package dev.agentdesk.app.cli;

import dev.agentdesk.agents.AgentType;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.transcripts.Provider;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The names the command line offers, each list from its enum: picocli shows them in help texts
 * ({@code ${COMPLETION-CANDIDATES}}) and shell completions, so help cannot drift from the code.
 */
public final class Names {
  private Names() {}

  /** The history's providers ({@code claude}, {@code codex}, …). */
  public static final class Providers implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Provider.values()).map(Provider::id).iterator();
    }
  }

  /** The agent types {@code agent start} launches ({@code claude}, …, {@code command}). */
  public static final class AgentTypes implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(AgentType.values()).map(AgentType::cliName).iterator();
    }
  }

  /** The output parser's agents ({@code claude}, …, {@code none}). */
  public static final class ParserAgents implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Agent.values()).map(Agent::cliName).iterator();
    }
  }

  /** "Claude Code, Codex, … and Aider": the history's providers as people call them. */
  public static String providerTitles() {
    List<String> t = Arrays.stream(Provider.values()).map(Provider::title).toList();
    return String.join(", ", t.subList(0, t.size() - 1)) + " and " + t.get(t.size() - 1);
  }
}
