package dev.agentdesk.transcripts.records;

/**
 * The canonical transcript language. Provider adapters emit these; the store serializes them; the
 * assembler builds session detail from them. Every record belongs to one session, and within a
 * session each kind has its own identity (for example a message is identified by
 * (session, uuid), never by uuid alone, because forks copy uuids into other files).
 *
 * <p>{@code ordinal} fields give the position of a record in its source stream (byte offset of the
 * line times {@link #BLOCKS_PER_LINE} plus the block index); they are stable across incremental
 * reads of an append-only file, which is what lets a persisted session sort exactly like a fresh one.
 */
public sealed interface TranscriptRecord
    permits SessionRecord, MessageRecord, ToolCallRecord, ToolResultRecord, SummaryRecord, SubagentRecord,
        WorkflowRecord, WorkflowAgentRecord, TurnDurationRecord, UsageLimitRecord, DeleteSessionRecord {

  /** Room for content blocks of one source line inside an ordinal. */
  long BLOCKS_PER_LINE = 1024;

  /** The session this record belongs to. */
  String sessionId();

  /** Ordinal of block {@code block} of the line that starts at byte {@code lineOffset}. */
  static long ordinal(long lineOffset, int block) {
    return lineOffset * BLOCKS_PER_LINE + Math.min(block, (int) BLOCKS_PER_LINE - 1);
  }
}
