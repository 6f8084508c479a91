package dev.agentdesk.terminal.parser;

import java.util.List;
import java.util.Objects;

/**
 * One structured fact the output parser recognised in an agent's terminal output. The set is
 * closed: each record is one event kind of {@code spec/output-parser.md}, and {@link #type()} is
 * its wire name (kebab-case) in the JSON form written by {@link EventJson}.
 */
public sealed interface ParsedEvent {

  /** The kebab-case wire name, e.g. {@code "rate-limit"}. */
  String type();

  /** A rate-limit message from an agent or provider; {@code retryAfterMs} when the text gives a delay. */
  record RateLimit(String patternName, String matchedText, Long retryAfterMs) implements ParsedEvent {
    public RateLimit {
      Objects.requireNonNull(patternName, "patternName");
      Objects.requireNonNull(matchedText, "matchedText");
      if (retryAfterMs != null && retryAfterMs < 0) {
        throw new IllegalArgumentException("retryAfterMs must not be negative: " + retryAfterMs);
      }
    }

    @Override
    public String type() {
      return "rate-limit";
    }
  }

  /** An agent's spinner/status line, with its elapsed-time and token parts when present. */
  record StatusLine(String taskName, String fullLine, String timeInfo, String tokenInfo) implements ParsedEvent {
    public StatusLine {
      Objects.requireNonNull(taskName, "taskName");
      Objects.requireNonNull(fullLine, "fullLine");
    }

    @Override
    public String type() {
      return "status-line";
    }
  }

  /** A pull/merge request URL on a known forge. */
  record PrUrl(int number, String url, Platform platform) implements ParsedEvent {
    public PrUrl {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(platform, "platform");
      if (number <= 0) {
        throw new IllegalArgumentException("PR number must be positive: " + number);
      }
    }

    @Override
    public String type() {
      return "pr-url";
    }
  }

  /** An OSC 9;4 progress report: state 0=remove 1=set 2=error 3=indeterminate 4=warning, value 0–100. */
  record Progress(int state, int value) implements ParsedEvent {
    public Progress {
      if (state < 0 || state > 4) {
        throw new IllegalArgumentException("progress state must be 0..4: " + state);
      }
      if (value < 0 || value > 100) {
        throw new IllegalArgumentException("progress value must be 0..100: " + value);
      }
    }

    @Override
    public String type() {
      return "progress";
    }
  }

  /**
   * The agent waits for the user. {@code confident} only for protocol-backed requests with one
   * reading; {@code turnEpoch} is the input turn the question belongs to (wire {@code _turn_epoch}).
   */
  record Question(String promptText, boolean confident, long turnEpoch) implements ParsedEvent {
    public Question {
      Objects.requireNonNull(promptText, "promptText");
    }

    @Override
    public String type() {
      return "question";
    }
  }

  /** Retraction of a low-confidence question: the screen is quiet and no prompt is showing. */
  record QuestionCleared(long turnEpoch) implements ParsedEvent {
    @Override
    public String type() {
      return "question-cleared";
    }
  }

  /** An API error reported by an agent (agent tier) or quoted from a provider's JSON (provider tier). */
  record ApiError(String patternName, String matchedText, ErrorKind errorKind) implements ParsedEvent {
    public ApiError {
      Objects.requireNonNull(patternName, "patternName");
      Objects.requireNonNull(matchedText, "matchedText");
      Objects.requireNonNull(errorKind, "errorKind");
    }

    @Override
    public String type() {
      return "api-error";
    }
  }

  /** {@code intent: <text> (<title>)} declared by the agent at column 0. */
  record Intent(String text, String title) implements ParsedEvent {
    public Intent {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String type() {
      return "intent";
    }
  }

  /** A plan file path the agent wrote or points at. */
  record PlanFile(String path) implements ParsedEvent {
    public PlanFile {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String type() {
      return "plan-file";
    }
  }

  /** {@code suggest: [ A | B | C ]}: two to four follow-up actions proposed by the agent. */
  record Suggest(List<String> items) implements ParsedEvent {
    public Suggest {
      items = List.copyOf(items);
      if (items.size() < 2 || items.size() > 4) {
        throw new IllegalArgumentException("suggest carries 2..4 items, got " + items.size());
      }
    }

    @Override
    public String type() {
      return "suggest";
    }
  }

  /** "You've used N% of your weekly/session limit". */
  record UsageLimit(int percentage, LimitType limitType) implements ParsedEvent {
    public UsageLimit {
      Objects.requireNonNull(limitType, "limitType");
      if (percentage < 0 || percentage > 100) {
        throw new IllegalArgumentException("percentage must be 0..100: " + percentage);
      }
    }

    @Override
    public String type() {
      return "usage-limit";
    }
  }

  /** "out of (extra) usage"; {@code resetTime} is the raw text after "resets", never interpreted. */
  record UsageExhausted(String resetTime) implements ParsedEvent {
    @Override
    public String type() {
      return "usage-exhausted";
    }
  }

  /** A {@code ››}/{@code ⏵⏵} mode line counting running sub-tasks (0 = all finished). */
  record ActiveSubtasks(int count, String taskType) implements ParsedEvent {
    public ActiveSubtasks {
      Objects.requireNonNull(taskType, "taskType");
      if (count < 0) {
        throw new IllegalArgumentException("count must not be negative: " + count);
      }
    }

    @Override
    public String type() {
      return "active-subtasks";
    }
  }

  /** Shell activity derived from output timing. */
  record ShellState(ShellActivity state) implements ParsedEvent {
    public ShellState {
      Objects.requireNonNull(state, "state");
    }

    @Override
    public String type() {
      return "shell-state";
    }
  }

  /** Claude Code refused its session id at startup. */
  record AgentSessionConflict(String matchedText, ConflictKind kind) implements ParsedEvent {
    public AgentSessionConflict {
      Objects.requireNonNull(matchedText, "matchedText");
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String type() {
      return "agent-session-conflict";
    }
  }

  /**
   * A confirmation / multiple-choice menu. {@code numbered}: the options carry their digits on
   * screen and a digit answers; otherwise (Claude's theme picker, trust dialog) the options are
   * numbered 1..n here in screen order and answered by moving the cursor marker and Enter.
   * {@code across}: the options stand side by side on one row (OpenCode's permission buttons), so
   * the cursor moves with Left/Right rather than Up/Down.
   */
  record ChoicePrompt(String title, List<ChoiceOption> options, String dismissKey, String amendKey, boolean numbered,
      boolean across) implements ParsedEvent {
    public ChoicePrompt {
      Objects.requireNonNull(title, "title");
      options = List.copyOf(options);
      if (options.size() < 2) {
        throw new IllegalArgumentException("a choice prompt has at least two options");
      }
    }

    /** A numbered menu. */
    public ChoicePrompt(String title, List<ChoiceOption> options, String dismissKey, String amendKey) {
      this(title, options, dismissKey, amendKey, true);
    }

    /** A menu whose options stand one under the other. */
    public ChoicePrompt(String title, List<ChoiceOption> options, String dismissKey, String amendKey, boolean numbered) {
      this(title, options, dismissKey, amendKey, numbered, false);
    }

    @Override
    public String type() {
      return "choice-prompt";
    }
  }

  /** The choice prompt shown before was resolved or disappeared. */
  record ChoiceCleared() implements ParsedEvent {
    @Override
    public String type() {
      return "choice-cleared";
    }
  }

  /** A slash-command menu under the composer while the user types a {@code /} command. */
  record SlashMenu(List<SlashMenuItem> items) implements ParsedEvent {
    public SlashMenu {
      items = List.copyOf(items);
      if (items.size() < 2) {
        throw new IllegalArgumentException("a slash menu has at least two items");
      }
    }

    @Override
    public String type() {
      return "slash-menu";
    }
  }

  /**
   * One option of a {@link ChoicePrompt}; {@code hint} is a trailing "(esc)"-style key hint, if
   * any; {@code description} the rows the agent draws under the label (Claude's
   * question menu), or null.
   */
  record ChoiceOption(int index, String label, boolean highlighted, boolean destructive, String hint,
      String description) {
    public ChoiceOption {
      Objects.requireNonNull(label, "label");
    }

    /** An option without a description. */
    public ChoiceOption(int index, String label, boolean highlighted, boolean destructive, String hint) {
      this(index, label, highlighted, destructive, hint, null);
    }
  }

  /** One command of a {@link SlashMenu}. */
  record SlashMenuItem(String command, boolean highlighted) {
    public SlashMenuItem {
      Objects.requireNonNull(command, "command");
    }
  }
}
