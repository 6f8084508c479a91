package dev.agentdesk.transcripts.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * PostgreSQL, for a team's shared history: the SQLite layout of schema version 3 ({@link
 * PackedRows}) with real {@code rowid BIGINT} keys on the three document tables (the writer hands
 * them out, {@link SearchDocs} names documents by them), {@code bytea} packed fields, and a
 * {@code tsvector} table with a GIN index for full-text search.
 *
 * <p>Differences from SQLite, all deliberate:
 * <ul>
 *   <li>Words are split and folded here, in Java, with the rule the query uses ({@code
 *   [\p{L}\p{N}]+}, lower case, diacritics removed), and only the words reach {@code
 *   to_tsvector('simple', ...)}: PostgreSQL's parser would otherwise keep {@code settings.py} or a
 *   path as one token, and its lower-casing depends on the database's locale.
 *   <li>Ranking is {@code ts_rank} (normalised by document length), not bm25; hits are the same
 *   documents, their order can differ.
 *   <li>A {@code tsvector} holds at most 1 MiB of words and positions: a document whose vocabulary
 *   is larger has the words past that budget left out of its index entry (the row itself is whole).
 *   <li>Writers take turns per database ({@link #beginWrite}); readers never wait for them.
 *   <li>U+0000, which PostgreSQL text cannot hold, is stored as U+FFFD ({@link #storableText}).
 *   <li>Every text column compares bytewise ({@code COLLATE "C"}), as SQLite does, so ids, paths and
 *   timestamps sort the same whatever the database's locale.
 * </ul>
 */
final class PostgresDialect implements SqlDialect {
  /** Key of the session-level advisory lock that serialises migrations of one database. */
  private static final long MIGRATION_LOCK = 0x6167656e74646b31L;
  /** The same word rule as the store's query parser (TranscriptStore.WORD). */
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  /** Below PostgreSQL's limit of 1 MiB (2^20 - 1 bytes) of lexemes and positions per tsvector. */
  static final int TSVECTOR_BUDGET = 1_000_000;
  /** PostgreSQL ignores longer words (with a notice); they are left out here instead. */
  private static final int MAX_WORD_BYTES = 2047;
  /** PostgreSQL keeps at most this many positions of one word. */
  private static final int MAX_POSITIONS = 256;

  @Override
  public Properties connectionProperties() {
    Properties p = new Properties();
    // The writer binds NULL as VARCHAR whatever the column; "unspecified" lets the server type it.
    p.setProperty("stringtype", "unspecified");
    p.setProperty("ApplicationName", "agentdesk");
    return p;
  }

  @Override
  public String openFailureAdvice() {
    return " (check that the PostgreSQL server runs and is reachable from here, and that the host, port, database,"
        + " user and password in the URL are right; the database must exist)";
  }

  @Override
  public void configure(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET client_min_messages = warning");
    }
  }

  @Override
  public List<String> migrations() {
    return List.of(V1.replace(" TEXT", " TEXT COLLATE \"C\""), UsageLedger.SCHEMA.replace(" TEXT", " TEXT COLLATE \"C\""),
        RecordWriter.SESSION_AGENT_FIGURES.replace(" TEXT", " TEXT COLLATE \"C\""),
        UsageLimits.SCHEMA.replace(" TEXT", " TEXT COLLATE \"C\""), UsageLedger.RESPONSE_TIMES,
        UsageLedger.HOURS.replace(" TEXT", " TEXT COLLATE \"C\""),
        UsageLedger.BY_MESSAGE.replace(" TEXT", " TEXT COLLATE \"C\"").replace("INTEGER PRIMARY KEY", "BIGINT PRIMARY KEY"));
  }

  /**
   * Version 2 adds the usage aggregates' tables (ADR 0018); version 5 gave candidates their time
   * (ADR 0038) and version 7 keys them by their message (ADR 0045): it fills the aggregates from
   * the stored messages, for every older database.
   */
  @Override
  public void afterMigration(int version, Connection c) throws SQLException {
    if (version == 7) {
      UsageLedger.rebuild(c, this);
    }
  }

  @Override
  public void beforeMigrations(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
    }
  }

  @Override
  public void afterMigrations(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
    }
  }

  /**
   * The writer hands out {@code MAX(rowid) + 1}, so two writers must not overlap. This lock
   * conflicts with itself and with every other write, but not with plain reads (ACCESS SHARE): a
   * second importer waits for the first one's transaction; readers go on.
   */
  @Override
  public void beginWrite(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("LOCK TABLE messages, tool_calls, tool_results IN SHARE ROW EXCLUSIVE MODE");
    }
  }

  /**
   * PostgreSQL checks NOT NULL before it looks for the conflict, so the stored row's own rowid is
   * bound; the upsert still never overwrites it.
   */
  @Override
  public Long upsertRowid(long rowid, boolean storedBefore) {
    return rowid;
  }

  /**
   * PostgreSQL text cannot hold U+0000 (SQLite's can): it becomes U+FFFD, as lone surrogates do
   * everywhere, instead of failing the batch and with it every later file of an import.
   */
  @Override
  public String storableText(String s) {
    return s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
  }

  @Override
  public String descendingNullsLast(String column) {
    return column + " DESC NULLS LAST";
  }

  @Override
  public String searchSql(List<String> filterColumns) {
    String select = "SELECT d.doc_id, -ts_rank(d.body, q.query, 1) AS rank FROM search_docs d,"
        + " plainto_tsquery('simple', CAST(? AS text)) AS q(query) WHERE d.body @@ q.query";
    if (filterColumns.isEmpty()) {
      return select + " ORDER BY rank, d.doc_id LIMIT ?";
    }
    // The filter runs before the limit: a document's session comes from its row (the id says which).
    String session = SearchDocs.sessionSql("d.doc_id");
    String where = filterColumns.stream().map(col -> col + " = ?").collect(Collectors.joining(" AND "));
    return select + " AND " + session + " IN (SELECT id FROM sessions WHERE " + where + ") ORDER BY rank, d.doc_id"
        + " LIMIT ?";
  }

  @Override
  public List<String> indexDocumentSql() {
    return List.of("INSERT INTO search_docs(doc_id, body) VALUES (?, to_tsvector('simple', CAST(? AS text)))"
        + " ON CONFLICT (doc_id) DO UPDATE SET body = excluded.body", "DELETE FROM search_docs WHERE doc_id = ?");
  }

  @Override
  public String deleteSessionDocumentsSql() {
    return "DELETE FROM search_docs WHERE doc_id IN (" + Arrays.stream(SearchDocs.values())
        .map(k -> "SELECT rowid * 4 + " + k.code + " FROM " + k.table + " WHERE session_id = ?")
        .collect(Collectors.joining(" UNION ALL ")) + ")";
  }

  /** The folded words, space-separated: {@code plainto_tsquery} ANDs them and reads no syntax. */
  @Override
  public String matchExpression(List<String> words) {
    return words.stream().map(PostgresDialect::fold).collect(Collectors.joining(" "));
  }

  /**
   * The body's folded words, space-separated, within {@link #TSVECTOR_BUDGET}: every occurrence of
   * a word already taken is kept (its position costs 2 bytes, none past 256), a new word is taken
   * while its bytes fit.
   */
  @Override
  public String indexedBody(String body) {
    StringBuilder out = new StringBuilder(Math.min(body.length(), 1 << 16));
    Map<String, int[]> seen = new HashMap<>();
    long used = 0;
    Matcher m = WORD.matcher(Normalizer.normalize(body, Normalizer.Form.NFC));
    while (m.find()) {
      String word = fold(m.group());
      int[] count = seen.get(word);
      int cost;
      if (count == null) {
        int bytes = word.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_WORD_BYTES) {
          continue;
        }
        // the word, alignment, the position count and this position
        cost = bytes + 1 + 2 + 2;
      } else {
        cost = count[0] < MAX_POSITIONS ? 2 : 0;
      }
      if (used + cost > TSVECTOR_BUDGET) {
        continue;
      }
      used += cost;
      if (count == null) {
        seen.put(word, new int[] {1});
      } else {
        count[0]++;
      }
      if (out.length() > 0) {
        out.append(' ');
      }
      out.append(word);
    }
    return out.toString();
  }

  /** Lower case without diacritics ({@code É} and {@code e} match), composed again. */
  static String fold(String word) {
    String decomposed = Normalizer.normalize(word.toLowerCase(Locale.ROOT), Normalizer.Form.NFD);
    return Normalizer.normalize(MARKS.matcher(decomposed).replaceAll(""), Normalizer.Form.NFC);
  }

  /**
   * Version 1 is SQLite's version 3 layout. The three document tables have a real {@code rowid}
   * key. Integers are BIGINT; {@code TEXT} becomes {@code TEXT COLLATE "C"} in {@link #migrations}.
   */
  private static final String V1 = """
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY, source TEXT NOT NULL, title TEXT, title_rank BIGINT NOT NULL, first_prompt TEXT,
        project TEXT, cwd TEXT, git_branch TEXT, version TEXT, started_at TEXT, ended_at TEXT,
        message_count BIGINT NOT NULL, count_mode TEXT NOT NULL, source_file TEXT, parent_session_id TEXT);
      CREATE INDEX sessions_by_end ON sessions(ended_at);
      CREATE TABLE messages (
        rowid BIGINT PRIMARY KEY, session_id TEXT NOT NULL, uuid TEXT NOT NULL, text TEXT,
        has_usage BIGINT NOT NULL, fields BYTEA NOT NULL,
        UNIQUE (session_id, uuid));
      CREATE INDEX messages_with_usage ON messages(has_usage) WHERE has_usage = 1;
      CREATE TABLE tool_calls (
        rowid BIGINT PRIMARY KEY, session_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT, input_json TEXT,
        fields BYTEA NOT NULL,
        UNIQUE (session_id, id));
      CREATE TABLE tool_results (
        rowid BIGINT PRIMARY KEY, session_id TEXT NOT NULL, tool_use_id TEXT NOT NULL, content TEXT,
        fields BYTEA NOT NULL,
        UNIQUE (session_id, tool_use_id));
      CREATE TABLE summaries (
        session_id TEXT NOT NULL, id TEXT NOT NULL, ordinal BIGINT NOT NULL, text TEXT, leaf_uuid TEXT,
        PRIMARY KEY (session_id, id));
      CREATE TABLE subagents (
        session_id TEXT NOT NULL, agent_id TEXT NOT NULL, parent_tool_call_id TEXT, type TEXT, description TEXT,
        duration_ms BIGINT, total_tokens BIGINT, agent_session_id TEXT,
        PRIMARY KEY (session_id, agent_id));
      CREATE TABLE workflows (
        session_id TEXT NOT NULL, run_id TEXT NOT NULL, parent_tool_call_id TEXT, task_id TEXT, status TEXT,
        duration_ms BIGINT, total_tokens BIGINT,
        PRIMARY KEY (session_id, run_id));
      CREATE TABLE workflow_agents (
        session_id TEXT NOT NULL, run_id TEXT NOT NULL, agent_id TEXT NOT NULL, type TEXT, description TEXT,
        status TEXT, duration_ms BIGINT, total_tokens BIGINT,
        PRIMARY KEY (session_id, run_id, agent_id));
      CREATE TABLE turn_durations (
        session_id TEXT NOT NULL, uuid TEXT NOT NULL, ordinal BIGINT NOT NULL, timestamp TEXT,
        duration_ms BIGINT NOT NULL,
        PRIMARY KEY (session_id, uuid));
      CREATE TABLE cursors (
        path TEXT PRIMARY KEY, provider TEXT NOT NULL, session_id TEXT NOT NULL, file_key TEXT NOT NULL,
        byte_offset BIGINT NOT NULL, line BIGINT NOT NULL, head_hash TEXT NOT NULL, state TEXT,
        updated_at TEXT NOT NULL);
      CREATE INDEX cursors_by_session ON cursors(session_id);
      CREATE TABLE import_problems (
        path TEXT NOT NULL, line BIGINT NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (path, line));
      CREATE TABLE search_docs (doc_id BIGINT PRIMARY KEY, body TSVECTOR NOT NULL);
      CREATE INDEX search_docs_body ON search_docs USING GIN (body);
      """;
}
