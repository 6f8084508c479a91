package dev.agentdesk.transcripts.store;

/**
 * Full-text documents and their ids. A document is the searchable text of one row of
 * {@code messages}, {@code tool_calls} or {@code tool_results}; its id in the index is that row's
 * rowid times four plus the kind, so a hit leads straight to its row and no mapping table exists.
 *
 * <p>Why not a hash of (session, kind, ref): FTS5 flushes its in-memory pending index whenever a
 * rowid is not larger than the previous one, delta-encodes rowids in its doclists, and keeps a
 * per-document row keyed by rowid; random ids defeat all three. Row ids grow with the import, so
 * documents arrive nearly in order and each transaction's documents are inserted sorted.
 */
enum SearchDocs {
  MESSAGE(1, "message", "messages", "uuid", "text"),
  TOOL_INPUT(2, "tool_input", "tool_calls", "id", "COALESCE(name || ' ', '') || COALESCE(input_json, '')"),
  TOOL_OUTPUT(3, "tool_output", "tool_results", "tool_use_id", "content");

  final int code;
  /** The kind as search hits name it. */
  final String label;
  final String table;
  /** The column that identifies the row inside its session. */
  final String refColumn;
  /** The SQL expression of the row's indexed text (same text as {@link #body} builds in Java). */
  final String bodySql;

  SearchDocs(int code, String label, String table, String refColumn, String bodySql) {
    this.code = code;
    this.label = label;
    this.table = table;
    this.refColumn = refColumn;
    this.bodySql = bodySql;
  }

  long docId(long rowid) {
    return rowid * 4 + code;
  }

  static SearchDocs ofDoc(long docId) {
    int code = (int) (docId & 3);
    for (SearchDocs k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("not a document id: " + docId);
  }

  static long rowidOf(long docId) {
    return docId >>> 2;
  }

  /**
   * SQL for the session of the document whose id is {@code docId} (an SQL expression): the id says
   * which table and row it came from. Search filters use it so that they apply before the limit.
   */
  static String sessionSql(String docId) {
    StringBuilder sql = new StringBuilder("CASE ").append(docId).append(" & 3");
    for (SearchDocs k : values()) {
      sql.append(" WHEN ").append(k.code).append(" THEN (SELECT session_id FROM ").append(k.table)
          .append(" WHERE rowid = ").append(docId).append(" >> 2)");
    }
    return sql.append(" END").toString();
  }

  /** The indexed text of a message, or null when it is not searchable (hidden or blank). */
  static String messageBody(boolean visible, String text) {
    return visible && text != null && !text.isBlank() ? text : null;
  }

  /** The indexed text of a tool call: its name and input, or null when both are empty. */
  static String toolInputBody(String name, String inputJson) {
    String body = (name == null ? "" : name + " ") + (inputJson == null ? "" : inputJson);
    return body.isBlank() ? null : body;
  }

  /** The indexed text of a tool result, or null when blank. */
  static String toolOutputBody(String content) {
    return content != null && !content.isBlank() ? content : null;
  }
}
