package dev.agentdesk.transcripts.records;

/** The closed vocabulary of {@link MessageRecord#contentType()} values. */
public final class ContentTypes {
  private ContentTypes() {}

  /** Conversation text. */
  public static final String TEXT = "text";
  /** Model reasoning; text may be null when the provider stored it encrypted or signature-only. */
  public static final String THINKING = "thinking";
  /** The instructions a Skill tool loaded into the conversation. */
  public static final String SKILL_INSTRUCTIONS = "skill_instructions";
  /** The summary that replaces history after a compaction. */
  public static final String COMPACT_SUMMARY = "compact_summary";
  /** The marker where history was compacted. */
  public static final String COMPACT_BOUNDARY = "compact_boundary";
  /** A slash command the user ran. */
  public static final String COMMAND = "command";
  /** Output of a local command the user ran. */
  public static final String COMMAND_OUTPUT = "command_output";
  /** A provider-side error or refusal shown in the conversation. */
  public static final String ERROR = "error";
  /** Transport envelopes: reminders, environment context, IDE wrappers, notifications, caveats. */
  public static final String ENVELOPE = "envelope";
  /**
   * The user stopped the agent mid-response (Claude's "[Request interrupted by user]" line, Codex's
   * turn_aborted event): a visible meta card, never a message of the count or the first prompt.
   */
  public static final String INTERRUPT = "interrupt";
  /**
   * Where the conversation goes back to an earlier point and continues from there (pi keeps every
   * branch of its session tree in one file): a visible meta card.
   */
  public static final String BRANCH = "branch";
  /** A hidden message that exists only to carry the token usage of a response. */
  public static final String USAGE = "usage";
}
