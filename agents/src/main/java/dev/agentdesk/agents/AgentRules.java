package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentException.Reason;
import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.transcripts.Provider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Per-agent rules: how to launch (with the first prompt where the CLI takes one as an argument),
 * how to resume, and where the transcript is. The table in docs/agents.md is this class in prose;
 * keep them together.
 */
final class AgentRules {
  private AgentRules() {}

  /** How the first prompt reaches the agent. */
  enum PromptMode {
    /** A trailing positional argument ({@code claude "fix it"}, {@code codex "fix it"}). */
    POSITIONAL,
    /** After an option ({@code gemini -i "fix it"}). */
    OPTION,
    /** Typed into the terminal, followed by Enter, once the agent's first screen is quiet. */
    TYPED
  }

  /** Where a transcript is looked for. */
  enum TranscriptRule {
    /** Located by the transcripts module's adapter for {@link #transcriptProvider} (it knows where its tool writes). */
    PROVIDER,
    NONE
  }

  static PromptMode promptMode(AgentType t) {
    return switch (t) {
      case CLAUDE, CODEX, PI -> PromptMode.POSITIONAL;
      case GEMINI, OPENCODE, COPILOT -> PromptMode.OPTION;
      case AIDER, COMMAND -> PromptMode.TYPED;
    };
  }

  private static String promptOption(AgentType t) {
    return switch (t) {
      case GEMINI -> "--prompt-interactive";
      case OPENCODE -> "--prompt";
      case COPILOT -> "--interactive";
      default -> null;
    };
  }

  /**
   * Codex 0.169 otherwise runs its turns in a shared {@code codex app-server} daemon (and its
   * pid-update loop) that it starts in sessions of their own, outside the PTY's process group; they
   * outlive the TUI (its Ctrl-C only detaches, the turn goes on) and serve every Codex of that
   * {@code CODEX_HOME}. Without auto-start the TUI runs its app server in-process, so the session's
   * PTY holds the whole agent and stopping it ends it. One token: the option's value may not read as the prompt.
   */
  static final String CODEX_NO_DAEMON = "--disable=daemon_auto_start";

  /** argv for a first launch; {@code launchId} is the session id agentdesk chose (used by Claude). */
  static List<String> launch(AgentType t, String executable, List<String> args, String launchId,
      Optional<String> prompt) {
    List<String> argv = new ArrayList<>();
    argv.add(executable);
    if (t == AgentType.CLAUDE) {
      argv.add("--session-id");
      argv.add(launchId);
    }
    if (t == AgentType.CODEX) {
      argv.add(CODEX_NO_DAEMON);
    }
    argv.addAll(args);
    if (prompt.isPresent() && !prompt.get().isEmpty()) {
      switch (promptMode(t)) {
        case POSITIONAL -> argv.add(prompt.get());
        case OPTION -> {
          argv.add(promptOption(t));
          argv.add(prompt.get());
        }
        case TYPED -> { }
      }
    }
    return argv;
  }

  /**
   * argv to resume an ended session in its folder. {@code transcriptId} is the provider's session
   * id when linked (Claude falls back to the id agentdesk chose, which is its session id).
   *
   * @throws AgentException {@code NOT_RESUMABLE} for a custom command, or Codex without a linked rollout
   */
  static List<String> resume(AgentType t, String executable, List<String> args, String launchId, String transcriptId) {
    List<String> argv = new ArrayList<>();
    argv.add(executable);
    switch (t) {
      case CLAUDE -> {
        argv.add("--resume");
        argv.add(transcriptId != null ? transcriptId : launchId);
      }
      case CODEX -> {
        if (transcriptId == null) {
          throw new AgentException(Reason.NOT_RESUMABLE,
              "codex has no linked rollout yet, so there is no session id to resume");
        }
        argv.add("resume");
        argv.add(CODEX_NO_DAEMON);
        argv.add(transcriptId);
      }
      case GEMINI -> {
        // The linked chat's id (after a trust restart, the file the session went on in); "latest" may be another session's.
        argv.add("--resume");
        argv.add(transcriptId != null ? transcriptId : "latest");
      }
      case AIDER -> argv.add("--restore-chat-history");
      // pi: --session takes a session file or id; without one, --continue takes the folder's newest.
      case OPENCODE, COPILOT, PI -> {
        if (transcriptId != null) {
          argv.add(t == AgentType.COPILOT ? "--resume" : "--session");
          argv.add(transcriptId);
        } else {
          argv.add("--continue");
        }
      }
      case COMMAND -> throw new AgentException(Reason.NOT_RESUMABLE,
          "a custom command has no resume rule; start a new session");
    }
    argv.addAll(args);
    return argv;
  }

  /**
   * How an agent is asked to end before it is signalled: the keys of its own exit (sent one by
   * one, {@link #KEY_GAP} apart), how long to wait for it to write its last records and exit ({@code patience}), and
   * how many times to try (a busy agent takes the first interrupt as "stop the turn").
   */
  record Farewell(List<Key> keys, Duration patience, int rounds) {
    static final Farewell NONE = new Farewell(List.of(), Duration.ZERO, 0);
  }

  /** Pause between the keys of a {@link Farewell} (Ink CLIs read a burst as one input). */
  static final Duration KEY_GAP = Duration.ofMillis(150);

  /** After the farewell, SIGTERM, this long, then SIGKILL. */
  static final Duration TERM_WAIT = Duration.ofSeconds(2);

  static Farewell farewell(AgentType t) {
    return switch (t) {
      // "Press Ctrl-C again to exit": Claude Code then writes its exit records (its recorded cost) and marks the
      // shutdown graceful (lastGracefulShutdown); Codex and Gemini CLI quit the same way.
      case CLAUDE, CODEX, GEMINI -> new Farewell(List.of(Key.CTRL_C, Key.CTRL_C), Duration.ofMillis(2500), 2);
      // OpenCode 1.18 quits on one Ctrl-C, busy or not, in under half a second, printing "Continue
      // opencode -s <session>"; a second round covers a composer holding text (Ctrl-C clears it first).
      case OPENCODE -> new Farewell(List.of(Key.CTRL_C), Duration.ofMillis(2500), 2);
      // Copilot 1.0.102: "ctrl+c again to exit", then it writes its last event (the run's token totals).
      // pi 0.73.1: "ctrl+c/ctrl+d clear/exit": Ctrl-C clears the editor, a second one exits.
      case COPILOT, PI -> new Farewell(List.of(Key.CTRL_C, Key.CTRL_C), Duration.ofMillis(2500), 2);
      // No exit keys known to hold for these: SIGTERM is their polite end.
      case AIDER, COMMAND -> Farewell.NONE;
    };
  }

  static TranscriptRule transcriptRule(AgentType t) {
    return switch (t) {
      case CLAUDE, CODEX, GEMINI, OPENCODE, COPILOT, AIDER, PI -> TranscriptRule.PROVIDER;
      case COMMAND -> TranscriptRule.NONE;
    };
  }

  /** The history provider whose adapter finds and reads this agent's transcript, for {@link TranscriptRule#PROVIDER}. */
  static Provider transcriptProvider(AgentType t) {
    return switch (t) {
      case CLAUDE -> Provider.CLAUDE;
      case CODEX -> Provider.CODEX;
      case GEMINI -> Provider.GEMINI;
      case OPENCODE -> Provider.OPENCODE;
      case COPILOT -> Provider.COPILOT;
      // its session in the worktree's .aider.chat.history.md, which holds every start of aider there
      case AIDER -> Provider.AIDER;
      case PI -> Provider.PI;
      case COMMAND -> throw new IllegalArgumentException(t + " has no history provider");
    };
  }

  /**
   * The executable: {@code command} when given (a path, or a name on PATH), else the agent's CLI
   * name on PATH. Checked before anything is created.
   *
   * @throws AgentException {@code COMMAND_NOT_FOUND} naming what was looked for and where
   */
  static Path resolveExecutable(String name, String path, Path cwd) {
    if (name == null || name.isBlank()) {
      throw new AgentException(Reason.INVALID_SPEC, "no command given: a custom command needs its argv");
    }
    if (name.contains("/")) {
      Path p = cwd.resolve(name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p.toAbsolutePath().normalize();
      }
      throw new AgentException(Reason.COMMAND_NOT_FOUND, "command " + name + " is "
          + (Files.exists(p) ? "not an executable file" : "not found"));
    }
    for (String dir : path.split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir).resolve(name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    throw new AgentException(Reason.COMMAND_NOT_FOUND, "'" + name + "' is not on PATH (" + path
        + "); install it or pass the command's path");
  }
}
