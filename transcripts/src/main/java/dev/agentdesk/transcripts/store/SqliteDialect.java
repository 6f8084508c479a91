package dev.agentdesk.transcripts.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * SQLite: WAL journal; FTS5 contentless index (with deletes) whose rowids name rows of the record
 * tables ({@link SearchDocs}); text lives only in the record tables, and snippets are cut from it.
 */
final class SqliteDialect implements SqlDialect {

  /**
   * The SQLite driver itself, not {@link java.sql.DriverManager}: that one loads every driver on the
   * class path first (PostgreSQL's, and java.util.logging with it), ~10 ms of a short report's start.
   */
  @Override
  public Connection connect(String url) throws SQLException {
    Connection c = org.sqlite.JDBC.createConnection(url, connectionProperties());
    if (c == null) {
      throw new SQLException("not an SQLite URL: " + url);
    }
    return c;
  }

  @Override
  public void configure(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      // 8 KiB pages for a new database (an existing one keeps its size): tool outputs and message
      // text overflow 4 KiB pages often, and a 1 GB import ran ~6 % faster with 8 KiB (16 KiB was
      // not better). Must precede WAL mode, after which the page size is fixed.
      s.execute("PRAGMA page_size=8192");
      s.execute("PRAGMA journal_mode=WAL");
      s.execute("PRAGMA synchronous=NORMAL");
      s.execute("PRAGMA busy_timeout=10000");
      s.execute("PRAGMA cache_size=-65536");
      s.execute("PRAGMA temp_store=MEMORY");
      // Fewer, larger checkpoints while importing; the WAL is still bounded.
      s.execute("PRAGMA wal_autocheckpoint=8192");
      s.execute("PRAGMA journal_size_limit=268435456");
    }
  }

  @Override
  public List<String> migrations() {
    return List.of(V1, V2, V3, UsageLedger.SCHEMA, RecordWriter.SESSION_AGENT_FIGURES,
        UsageLimits.SCHEMA, UsageLedger.RESPONSE_TIMES, UsageLedger.HOURS, UsageLedger.BY_MESSAGE);
  }

  /**
   * Versions 2, 3 and 9 rebuild data in Java: the index from the rows, the packed tables, the usage
   * aggregates (version 4 adds their tables empty; version 9 keys candidates by their message and
   * fills the aggregates from the messages). Version 7, which gave candidates their time, filled
   * them too; version 9 does it for every older database now, in the layout the ledger writes.
   */
  @Override
  public void afterMigration(int version, Connection c) throws SQLException {
    if (version == 2) {
      Migrations.reindex(c);
    } else if (version == 3) {
      Migrations.repack(c);
    } else if (version == 9) {
      UsageLedger.rebuild(c, this);
    }
  }

  @Override
  public String searchSql(List<String> filterColumns) {
    if (filterColumns.isEmpty()) {
      return "SELECT rowid, bm25(search_fts) AS rank FROM search_fts WHERE search_fts MATCH ? ORDER BY rank LIMIT ?";
    }
    // The filter runs before the limit: a document's session comes from its row (the id says which).
    String session = SearchDocs.sessionSql("x.rowid");
    String where = filterColumns.stream().map(col -> col + " = ?").collect(Collectors.joining(" AND "));
    return "SELECT x.rowid, x.rank FROM (SELECT rowid, bm25(search_fts) AS rank FROM search_fts WHERE search_fts"
        + " MATCH ?) x WHERE " + session + " IN (SELECT id FROM sessions WHERE " + where + ") ORDER BY x.rank LIMIT ?";
  }

  @Override
  public List<String> indexDocumentSql() {
    return List.of("INSERT INTO search_fts(rowid, body) VALUES (?, ?)", "DELETE FROM search_fts WHERE rowid = ?");
  }

  @Override
  public String deleteSessionDocumentsSql() {
    return "DELETE FROM search_fts WHERE rowid IN (" + java.util.Arrays.stream(SearchDocs.values())
        .map(k -> "SELECT rowid * 4 + " + k.code + " FROM " + k.table + " WHERE session_id = ?")
        .collect(Collectors.joining(" UNION ALL ")) + ")";
  }

  @Override
  public String matchExpression(List<String> words) {
    // Every word is a quoted phrase, so user punctuation is never FTS syntax; words are ANDed.
    return words.stream().map(w -> "\"" + w.replace("\"", "\"\"") + "\"").collect(Collectors.joining(" "));
  }

  private static final String V1 = """
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY, source TEXT NOT NULL, title TEXT, title_rank INTEGER NOT NULL, first_prompt TEXT,
        project TEXT, cwd TEXT, git_branch TEXT, version TEXT, started_at TEXT, ended_at TEXT,
        message_count INTEGER NOT NULL, count_mode TEXT NOT NULL, source_file TEXT, parent_session_id TEXT);
      CREATE INDEX sessions_by_end ON sessions(ended_at);
      CREATE TABLE messages (
        session_id TEXT NOT NULL, uuid TEXT NOT NULL, parent_uuid TEXT, ordinal INTEGER NOT NULL, timestamp TEXT,
        role TEXT NOT NULL, text TEXT, content_type TEXT NOT NULL, is_meta INTEGER NOT NULL,
        visibility TEXT NOT NULL, model TEXT, is_sidechain INTEGER NOT NULL, agent_id TEXT, response_id TEXT,
        has_usage INTEGER NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL, cache_creation_tokens INTEGER NOT NULL,
        UNIQUE (session_id, uuid));
      CREATE INDEX messages_with_usage ON messages(has_usage) WHERE has_usage = 1;
      CREATE TABLE tool_calls (
        session_id TEXT NOT NULL, id TEXT NOT NULL, message_uuid TEXT, ordinal INTEGER NOT NULL, timestamp TEXT,
        name TEXT, presentation TEXT NOT NULL, input_json TEXT, file_path TEXT,
        UNIQUE (session_id, id));
      CREATE TABLE tool_results (
        session_id TEXT NOT NULL, tool_use_id TEXT NOT NULL, ordinal INTEGER NOT NULL, timestamp TEXT,
        content TEXT, is_error INTEGER NOT NULL,
        UNIQUE (session_id, tool_use_id));
      CREATE TABLE summaries (
        session_id TEXT NOT NULL, id TEXT NOT NULL, ordinal INTEGER NOT NULL, text TEXT, leaf_uuid TEXT,
        PRIMARY KEY (session_id, id)) WITHOUT ROWID;
      CREATE TABLE subagents (
        session_id TEXT NOT NULL, agent_id TEXT NOT NULL, parent_tool_call_id TEXT, type TEXT, description TEXT,
        duration_ms INTEGER, total_tokens INTEGER, agent_session_id TEXT,
        PRIMARY KEY (session_id, agent_id)) WITHOUT ROWID;
      CREATE TABLE workflows (
        session_id TEXT NOT NULL, run_id TEXT NOT NULL, parent_tool_call_id TEXT, task_id TEXT, status TEXT,
        duration_ms INTEGER, total_tokens INTEGER,
        PRIMARY KEY (session_id, run_id)) WITHOUT ROWID;
      CREATE TABLE workflow_agents (
        session_id TEXT NOT NULL, run_id TEXT NOT NULL, agent_id TEXT NOT NULL, type TEXT, description TEXT,
        status TEXT, duration_ms INTEGER, total_tokens INTEGER,
        PRIMARY KEY (session_id, run_id, agent_id)) WITHOUT ROWID;
      CREATE TABLE turn_durations (
        session_id TEXT NOT NULL, uuid TEXT NOT NULL, ordinal INTEGER NOT NULL, timestamp TEXT,
        duration_ms INTEGER NOT NULL,
        PRIMARY KEY (session_id, uuid)) WITHOUT ROWID;
      CREATE TABLE cursors (
        path TEXT PRIMARY KEY, provider TEXT NOT NULL, session_id TEXT NOT NULL, file_key TEXT NOT NULL,
        byte_offset INTEGER NOT NULL, line INTEGER NOT NULL, head_hash TEXT NOT NULL, state TEXT,
        updated_at TEXT NOT NULL);
      CREATE INDEX cursors_by_session ON cursors(session_id);
      CREATE TABLE import_problems (
        path TEXT NOT NULL, line INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (path, line));
      CREATE TABLE search_docs (
        id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL);
      CREATE INDEX search_docs_by_session ON search_docs(session_id);
      CREATE VIRTUAL TABLE search_fts USING fts5(body, content='', contentless_delete=1,
        tokenize='unicode61 remove_diacritics 2');
      """;

  /**
   * Version 2: full-text document ids come from the rows' own rowids instead of a hash kept in
   * {@code search_docs}. The index is rebuilt from the stored rows ({@link Migrations} does that in
   * Java, with the same rules the writer uses). The pending-index size is raised so that a large
   * import transaction becomes one index segment instead of one per megabyte.
   */
  private static final String V2 = """
      DROP TABLE search_docs;
      DROP TABLE search_fts;
      CREATE VIRTUAL TABLE search_fts USING fts5(body, content='', contentless_delete=1,
        tokenize='unicode61 remove_diacritics 2');
      INSERT INTO search_fts(search_fts, rank) VALUES ('hashsize', 67108864);
      """;

  /**
   * Version 3: messages, tool calls and tool results keep as columns only what SQL reads (identity,
   * searchable text, the usage flag) and pack the other fields into {@code fields} ({@link
   * PackedRows}). {@link Migrations} fills the new tables from the old ones, keeping every rowid (the
   * full-text documents are named by them), then swaps them in. The index merges once eight segments
   * of a size exist instead of four: a large import rewrote its index about twice as often, and
   * queries stay far inside their budget with the extra segments.
   */
  private static final String V3 = """
      CREATE TABLE messages_v3 (
        session_id TEXT NOT NULL, uuid TEXT NOT NULL, text TEXT, has_usage INTEGER NOT NULL, fields BLOB NOT NULL,
        UNIQUE (session_id, uuid));
      CREATE TABLE tool_calls_v3 (
        session_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT, input_json TEXT, fields BLOB NOT NULL,
        UNIQUE (session_id, id));
      CREATE TABLE tool_results_v3 (
        session_id TEXT NOT NULL, tool_use_id TEXT NOT NULL, content TEXT, fields BLOB NOT NULL,
        UNIQUE (session_id, tool_use_id));
      INSERT INTO search_fts(search_fts, rank) VALUES ('automerge', 8);
      """;
}
