package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.terminal.parser.Agent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launch and resume argv per agent, and the executable lookup. */
class AgentRulesTest {
  static final String ID = "5f0c1a2e-0000-4000-8000-000000000001";

  @Test
  void launchPutsTheFirstPromptWhereEachCliTakesIt() {
    Optional<String> p = Optional.of("fix the bug");
    assertThat(AgentRules.launch(AgentType.CLAUDE, "claude", List.of("--model", "opus"), ID, p))
        .containsExactly("claude", "--session-id", ID, "--model", "opus", "fix the bug");
    assertThat(AgentRules.launch(AgentType.CODEX, "codex", List.of(), ID, p)).containsExactly("codex", "--disable=daemon_auto_start", "fix the bug");
    assertThat(AgentRules.launch(AgentType.GEMINI, "gemini", List.of(), ID, p))
        .containsExactly("gemini", "--prompt-interactive", "fix the bug");
    assertThat(AgentRules.launch(AgentType.OPENCODE, "opencode", List.of(), ID, p))
        .containsExactly("opencode", "--prompt", "fix the bug");
    assertThat(AgentRules.launch(AgentType.COPILOT, "copilot", List.of(), ID, p))
        .containsExactly("copilot", "--interactive", "fix the bug");
    assertThat(AgentRules.launch(AgentType.PI, "pi", List.of("--provider", "local"), ID, p))
        .containsExactly("pi", "--provider", "local", "fix the bug");
    // typed after start, never an argument
    assertThat(AgentRules.launch(AgentType.AIDER, "aider", List.of(), ID, p)).containsExactly("aider");
    assertThat(AgentRules.launch(AgentType.CLAUDE, "claude", List.of(), ID, Optional.empty()))
        .containsExactly("claude", "--session-id", ID);
  }

  @Test
  void resumeArgvPerAgent() {
    assertThat(AgentRules.resume(AgentType.CLAUDE, "claude", List.of(), ID, null)).containsExactly("claude", "--resume", ID);
    assertThat(AgentRules.resume(AgentType.CODEX, "codex", List.of(), null, "019b")).containsExactly("codex", "resume", "--disable=daemon_auto_start", "019b");
    assertThatThrownBy(() -> AgentRules.resume(AgentType.CODEX, "codex", List.of(), null, null))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(AgentException.Reason.NOT_RESUMABLE);
    assertThat(AgentRules.resume(AgentType.GEMINI, "gemini", List.of(), null, null))
        .containsExactly("gemini", "--resume", "latest");
    assertThat(AgentRules.resume(AgentType.GEMINI, "gemini", List.of(), null, "4a927ce4-175c-4ae6-a181-cdd89befa324"))
        .containsExactly("gemini", "--resume", "4a927ce4-175c-4ae6-a181-cdd89befa324");
    assertThat(AgentRules.resume(AgentType.AIDER, "aider", List.of(), null, null))
        .containsExactly("aider", "--restore-chat-history");
    assertThat(AgentRules.resume(AgentType.OPENCODE, "opencode", List.of(), null, "ses_1"))
        .containsExactly("opencode", "--session", "ses_1");
    assertThat(AgentRules.resume(AgentType.COPILOT, "copilot", List.of(), null, null))
        .containsExactly("copilot", "--continue");
    assertThat(AgentRules.resume(AgentType.PI, "pi", List.of(), null, "019ad"))
        .containsExactly("pi", "--session", "019ad");
    assertThat(AgentRules.resume(AgentType.PI, "pi", List.of(), null, null)).containsExactly("pi", "--continue");
    assertThat(AgentRules.transcriptProvider(AgentType.PI)).isEqualTo(dev.agentdesk.transcripts.Provider.PI);
    assertThatThrownBy(() -> AgentRules.resume(AgentType.COMMAND, "sh", List.of(), null, null))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(AgentException.Reason.NOT_RESUMABLE);
  }

  @Test
  void namesAndParserAgents() {
    for (AgentType t : AgentType.values()) {
      assertThat(AgentType.named(t.cliName().toUpperCase())).isEqualTo(t);
    }
    assertThat(AgentType.CODEX.terminalAgent()).isEqualTo(Agent.CODEX);
    assertThat(AgentType.COMMAND.executable()).isNull();
    assertThatThrownBy(() -> AgentType.named("cursor")).hasMessageContaining("claude, codex, gemini, aider, opencode, copilot, pi, command");
  }

  @Test
  void theExecutableIsFoundOnPathOrByPath(@TempDir Path tmp) throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path exe = bin.resolve("claude");
    Files.writeString(exe, "#!/bin/sh\n");
    exe.toFile().setExecutable(true);
    Path notExe = bin.resolve("codex");
    Files.writeString(notExe, "");
    assertThat(AgentRules.resolveExecutable("claude", "/nope:" + bin, tmp)).isEqualTo(exe);
    assertThat(AgentRules.resolveExecutable("bin/claude", "", tmp)).isEqualTo(exe);
    assertThatThrownBy(() -> AgentRules.resolveExecutable("codex", bin.toString(), tmp))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(AgentException.Reason.COMMAND_NOT_FOUND);
    assertThatThrownBy(() -> AgentRules.resolveExecutable("bin/codex", "", tmp))
        .hasMessageContaining("not an executable file");
  }
}
