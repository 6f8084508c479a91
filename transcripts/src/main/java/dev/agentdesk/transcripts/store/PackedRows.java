package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.Visibility;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import java.util.List;

/**
 * How the three large tables store a record: as columns only what SQL reads (the identity, the
 * searchable text, the usage flag), and every other field packed into one {@code fields} BLOB.
 *
 * <p>Why: sqlite-jdbc reads a row one JNI call per column (~0.2 µs each), so a 20k-record session
 * read column by column spent most of its detail time in those calls (19 per message). Reading
 * three values per row and unpacking the rest in Java halves that; the writer binds a third of the
 * parameters it did. The rows handed to the assembler still carry every field under its own column
 * name ({@code *_COLUMNS}), so the packing stays a storage detail.
 */
final class PackedRows {
  private PackedRows() {}

  /** Logical columns of a message row, in the order {@link #message} fills them. */
  static final List<String> MESSAGE_COLUMNS = List.of("session_id", "uuid", "parent_uuid", "ordinal", "timestamp",
      "role", "text", "content_type", "is_meta", "visibility", "model", "is_sidechain", "agent_id", "response_id",
      "has_usage", "input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens",
      "cache_creation_1h_tokens");
  static final String MESSAGE_SELECT = "SELECT uuid, text, fields FROM messages WHERE session_id = ?";

  static final List<String> TOOL_CALL_COLUMNS = List.of("session_id", "id", "message_uuid", "ordinal", "timestamp",
      "name", "presentation", "input_json", "file_path");
  static final String TOOL_CALL_SELECT = "SELECT id, name, input_json, fields FROM tool_calls WHERE session_id = ?";

  static final List<String> TOOL_RESULT_COLUMNS = List.of("session_id", "tool_use_id", "ordinal", "timestamp",
      "content", "is_error");
  static final String TOOL_RESULT_SELECT = "SELECT tool_use_id, content, fields FROM tool_results WHERE session_id = ?";

  static byte[] messageFields(Packed.Out o, MessageRecord m) {
    TokenUsage u = m.usage();
    o.start().str(m.parentUuid()).lng(m.ordinal()).str(m.timestamp()).str(m.role()).str(m.contentType())
        .bool(m.isMeta()).str(m.visibility().name()).str(m.model()).bool(m.isSidechain()).str(m.agentId())
        .str(m.responseId()).bool(u != null);
    if (u != null) {
      o.lng(u.input()).lng(u.output()).lng(u.cacheRead()).lng(u.cacheCreation());
      if (u.cacheCreation1h() != 0) {
        // Trailing and optional: rows written before the one-hour split was stored end here.
        o.lng(u.cacheCreation1h());
      }
    }
    return o.toBytes();
  }

  /** A message row in {@link #MESSAGE_COLUMNS} order. */
  static Object[] message(String sessionId, String uuid, String text, byte[] fields) {
    Packed.In in = new Packed.In(fields, "message", uuid);
    Object[] r = new Object[20];
    r[0] = sessionId;
    r[1] = uuid;
    r[2] = in.str();
    r[3] = in.lng();
    r[4] = in.str();
    r[5] = in.str();
    r[6] = text;
    r[7] = in.str();
    r[8] = flag(in.bool());
    r[9] = in.str();
    r[10] = in.str();
    r[11] = flag(in.bool());
    r[12] = in.str();
    r[13] = in.str();
    boolean usage = in.bool();
    r[14] = flag(usage);
    r[15] = usage ? in.lng() : 0L;
    r[16] = usage ? in.lng() : 0L;
    r[17] = usage ? in.lng() : 0L;
    r[18] = usage ? in.lng() : 0L;
    r[19] = usage && in.more() ? in.lng() : 0L;
    return r;
  }

  /** The message of a row in {@link #MESSAGE_COLUMNS} order (text as the row holds it). */
  static MessageRecord usageRecord(Object[] r) {
    boolean usage = ((Long) r[14]) != 0;
    return new MessageRecord((String) r[0], (String) r[1], (String) r[2], (Long) r[3], (String) r[4], (String) r[5],
        (String) r[6], (String) r[7], ((Long) r[8]) != 0, Visibility.valueOf((String) r[9]), (String) r[10],
        ((Long) r[11]) != 0, (String) r[12], (String) r[13], usage ? new TokenUsage((Long) r[15], (Long) r[16],
            (Long) r[17], (Long) r[18], (Long) r[19]) : null);
  }

  /** What usage totals need of a message that carries usage. */
  static TranscriptStore.UsageSample usageSample(String sessionId, String source, String uuid, byte[] fields) {
    Object[] r = message(sessionId, uuid, null, fields);
    return new TranscriptStore.UsageSample(sessionId, source, uuid, (Long) r[3], (String) r[4], (String) r[10],
        (String) r[13], new TokenUsage((Long) r[15], (Long) r[16], (Long) r[17], (Long) r[18],
        (Long) r[19]));
  }

  static byte[] toolCallFields(Packed.Out o, ToolCallRecord t) {
    return o.start().str(t.messageUuid()).lng(t.ordinal()).str(t.timestamp()).str(t.presentation())
        .str(t.filePath()).toBytes();
  }

  /** A tool call row in {@link #TOOL_CALL_COLUMNS} order. */
  static Object[] toolCall(String sessionId, String id, String name, String inputJson, byte[] fields) {
    Packed.In in = new Packed.In(fields, "tool call", id);
    return new Object[] {sessionId, id, in.str(), in.lng(), in.str(), name, in.str(), inputJson, in.str()};
  }

  static byte[] toolResultFields(Packed.Out o, ToolResultRecord t) {
    return o.start().lng(t.ordinal()).str(t.timestamp()).bool(t.isError()).toBytes();
  }

  /** A tool result row in {@link #TOOL_RESULT_COLUMNS} order. */
  static Object[] toolResult(String sessionId, String toolUseId, String content, byte[] fields) {
    Packed.In in = new Packed.In(fields, "tool result", toolUseId);
    long ordinal = in.lng();
    String timestamp = in.str();
    return new Object[] {sessionId, toolUseId, ordinal, timestamp, content, flag(in.bool())};
  }

  private static Long flag(boolean b) {
    return b ? 1L : 0L;
  }
}
