package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.Page;
import dev.agentdesk.transcripts.SearchFilter;
import dev.agentdesk.transcripts.SearchHit;
import dev.agentdesk.transcripts.SessionQuery;
import dev.agentdesk.transcripts.SessionSummary;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptException.Reason;
import dev.agentdesk.transcripts.adapter.Cursor;
import dev.agentdesk.transcripts.adapter.ParseResult;
import dev.agentdesk.transcripts.adapter.SourceUnit;
import dev.agentdesk.transcripts.assemble.TableRows;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Persistence of records and cursors over JDBC. Each {@link #writeBatch} is one transaction that
 * holds the batch's records and the cursor that follows them, so a crash never leaves records
 * without their cursor or the reverse. Not thread-safe: one instance per thread. Several instances
 * (processes) may write one PostgreSQL database; their write transactions take turns.
 */
public final class TranscriptStore implements AutoCloseable {
  /** Replaced by {@link #reconnect} when the server drops it. */
  private Connection c;
  private final SqlDialect dialect;
  private final String url;
  private boolean closed;

  private TranscriptStore(Connection c, SqlDialect dialect, String url) {
    this.c = c;
    this.dialect = dialect;
    this.url = url;
  }

  /** Opens (creating and migrating) the SQLite database {@code file}. */
  public static TranscriptStore openSqlite(Path file) {
    return open("jdbc:sqlite:" + file.toAbsolutePath());
  }

  /**
   * Opens a database by JDBC URL: {@code jdbc:sqlite:FILE} or {@code jdbc:postgresql://HOST[:PORT]/DB}
   * (credentials as URL parameters or the driver's other means).
   */
  public static TranscriptStore open(String jdbcUrl) {
    return open(jdbcUrl, System.getenv());
  }

  /**
   * {@link #open(String)} with PostgreSQL's password conventions read from {@code env}: a URL
   * without a password takes {@code PGPASSWORD} or the matching line of the password file
   * ({@code PGPASSFILE}, else {@code ~/.pgpass}).
   */
  public static TranscriptStore open(String jdbcUrl, Map<String, String> env) {
    String given = jdbcUrl;
    jdbcUrl = PgPassword.complete(jdbcUrl, env);
    SqlDialect dialect;
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      dialect = new SqliteDialect();
      sqliteFile(jdbcUrl).ifPresent(TranscriptStore::prepareFile);
      SqliteNative.useCachedLibrary();
    } else if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      dialect = new PostgresDialect();
    } else {
      throw new TranscriptException(Reason.UNSUPPORTED_DATABASE, "unsupported database URL "
          + JdbcUrls.redacted(jdbcUrl)
          + " (this build stores history in SQLite, jdbc:sqlite:FILE, or PostgreSQL, jdbc:postgresql://HOST/DB)");
    }
    try {
      Connection c = dialect.connect(jdbcUrl);
      try {
        dialect.configure(c);
        Migrations.migrate(c, dialect);
        return new TranscriptStore(c, dialect, jdbcUrl);
      } catch (SQLException | RuntimeException e) {
        c.close();
        throw e;
      }
    } catch (SQLException e) {
      String message = "cannot open " + given + ": " + e.getMessage() + dialect.openFailureAdvice();
      throw new TranscriptException(Reason.STORE_FAILURE,
          JdbcUrls.withoutPassword(JdbcUrls.withoutPassword(message, jdbcUrl), given), e);
    }
  }


  /**
   * The first row's value, empty for no row or a NULL column: {@code stream().findFirst()} throws
   * on a null element, and a NULL is an ordinary value in these columns.
   */
  private static <T> Optional<T> first(List<T> rows) {
    return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
  }

  /** The file of a {@code jdbc:sqlite:FILE[?options]} URL; none for an in-memory database. */
  private static Optional<Path> sqliteFile(String jdbcUrl) {
    String rest = jdbcUrl.substring("jdbc:sqlite:".length());
    if (rest.startsWith("file:")) {
      rest = rest.substring(5);
    }
    int q = rest.indexOf('?');
    String path = q < 0 ? rest : rest.substring(0, q);
    if (path.isEmpty() || path.equals(":memory:") || path.contains("mode=memory")) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(path));
    } catch (java.nio.file.InvalidPathException e) {
      throw new TranscriptException(Reason.STORE_FAILURE, "not a database file name: " + jdbcUrl, e);
    }
  }

  private static void prepareFile(Path file) {
    try {
      SqliteFiles.prepare(file);
    } catch (java.io.UncheckedIOException e) {
      throw new TranscriptException(Reason.STORE_FAILURE, e.getMessage(), e);
    }
  }

  /** The stored cursor of {@code file}, if it was imported before. */
  public Optional<Cursor> cursor(Path file) {
    return cursor(key(file));
  }

  /** The stored cursor of {@code unit}, if it was imported before. */
  public Optional<Cursor> cursor(SourceUnit unit) {
    return cursor(unit.key());
  }

  private Optional<Cursor> cursor(String key) {
    return first(query("SELECT file_key, byte_offset, line, head_hash, state FROM cursors WHERE path = ?",
        List.of(key), rs -> new Cursor(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4),
            rs.getString(5))));
  }

  /** The file whose records make up {@code sessionId}, if any. */
  public Optional<String> sessionOwner(String sessionId) {
    return first(query("SELECT path FROM cursors WHERE session_id = ?", List.of(sessionId), rs -> rs.getString(1)));
  }

  /** A parse result of one unit, as written by {@link #writeBatch}. */
  public record UnitBatch(SourceUnit unit, ParseResult result) {}

  /** Writes one parse result and its cursor in a single transaction. */
  public void writeBatch(SourceUnit unit, ParseResult result) {
    writeBatch(List.of(new UnitBatch(unit, result)));
  }

  /**
   * Writes parse results (of one or several files) and their cursors in a single transaction:
   * either all of them are stored with their cursors, or none is.
   */
  public void writeBatch(List<UnitBatch> batches) {
    if (batches.isEmpty()) {
      return;
    }
    try {
      c.setAutoCommit(false);
      dialect.beginWrite(c);
      try (RecordWriter w = new RecordWriter(c, this, dialect);
          PreparedStatement cur = c.prepareStatement(RecordWriter.upsert("cursors", List.of("path"), "provider",
              "session_id", "file_key", "byte_offset", "line", "head_hash", "state", "updated_at"));
          PreparedStatement prob = c.prepareStatement(RecordWriter.upsert("import_problems", List.of("path", "line"),
              "reason"))) {
        String now = Instant.now().toString();
        for (UnitBatch b : batches) {
          SourceUnit unit = b.unit();
          ParseResult result = b.result();
          w.write(result.records(), unit.provider().id());
          Cursor n = result.next();
          cur.setString(1, unit.key());
          cur.setString(2, unit.provider().id());
          cur.setString(3, dialect.storableText(unit.sessionId()));
          cur.setString(4, n.fileKey());
          cur.setLong(5, n.offset());
          cur.setLong(6, n.line());
          cur.setString(7, n.headHash());
          cur.setString(8, n.state() == null ? null : dialect.storableText(n.state()));
          cur.setString(9, now);
          cur.executeUpdate();
          for (LineProblem problem : result.problems()) {
            prob.setString(1, unit.key());
            prob.setLong(2, problem.line());
            prob.setString(3, dialect.storableText(problem.reason()));
            prob.executeUpdate();
          }
        }
        w.finish();
      }
      c.commit();
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(e);
      if (e instanceof SQLException sql && connectionLost(sql)) {
        // Not retried: whether a lost commit happened is unknown. The next batch gets a new connection.
        reconnect();
      }
      throw new TranscriptException(Reason.STORE_FAILURE, "cannot store " + batches.get(0).unit().file()
          + (batches.size() > 1 ? " and " + (batches.size() - 1) + " more files" : "") + ": " + e.getMessage(), e);
    } finally {
      try {
        c.setAutoCommit(true);
      } catch (SQLException ignored) {
        // the connection is unusable; the next call reports it
      }
    }
  }

  /**
   * Stores usage windows reported outside any transcript (a supervised terminal's screen), in one
   * transaction; a window keeps a figure observed later than these.
   */
  public void writeLimits(List<dev.agentdesk.transcripts.UsageLimit> reported) {
    if (reported.isEmpty()) {
      return;
    }
    try {
      c.setAutoCommit(false);
      dialect.beginWrite(c);
      UsageLimits l = new UsageLimits();
      reported.forEach(l::add);
      l.finish(c, dialect);
      c.commit();
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(e);
      throw new TranscriptException(Reason.STORE_FAILURE, "cannot store usage limits: " + e.getMessage(), e);
    } finally {
      try {
        c.setAutoCommit(true);
      } catch (SQLException ignored) {
        // the connection is unusable; the next call reports it
      }
    }
  }

  /** The latest known usage window of each provider, by provider and window name. */
  public List<dev.agentdesk.transcripts.UsageLimit> limits() {
    try {
      return read(() -> {
        try (PreparedStatement p = c.prepareStatement(UsageLimits.SELECT); ResultSet rs = p.executeQuery()) {
          return UsageLimits.read(rs);
        }
      });
    } catch (SQLException e) {
      throw new TranscriptException(Reason.STORE_FAILURE, "database query failed: " + e.getMessage(), e);
    }
  }

  private void rollbackQuietly(Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  Optional<SessionRecord> readSession(Connection conn, String id) throws SQLException {
    try (PreparedStatement p = conn.prepareStatement("SELECT * FROM sessions WHERE id = ?")) {
      p.setString(1, dialect.storableText(id));
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new SessionRecord(rs.getString("id"), rs.getString("source"), rs.getString("title"),
            rs.getInt("title_rank"), rs.getString("first_prompt"), rs.getString("project"), rs.getString("cwd"),
            rs.getString("git_branch"), rs.getString("version"), rs.getString("started_at"),
            rs.getString("ended_at"), rs.getLong("message_count"), CountMode.valueOf(rs.getString("count_mode")),
            rs.getString("source_file"), rs.getString("parent_session_id"), rs.getString("permission_mode"),
            RecordedCost.decode(rs.getString("recorded_cost"))));
      }
    }
  }

  /** Every stored row of the session, table by table, for the assembler's row adapter. */
  public Optional<TableRows> sessionRows(String sessionId) {
    Map<String, TableRows.Table> tables = new LinkedHashMap<>();
    TableRows.Table session = rows("SELECT * FROM sessions WHERE id = ?", sessionId);
    if (session.rows().isEmpty()) {
      return Optional.empty();
    }
    tables.put("sessions", session);
    tables.put("messages", packedRows(PackedRows.MESSAGE_SELECT, PackedRows.MESSAGE_COLUMNS, sessionId,
        rs -> PackedRows.message(sessionId, rs.getString(1), rs.getString(2), rs.getBytes(3))));
    tables.put("tool_calls", packedRows(PackedRows.TOOL_CALL_SELECT, PackedRows.TOOL_CALL_COLUMNS, sessionId,
        rs -> PackedRows.toolCall(sessionId, rs.getString(1), rs.getString(2), rs.getString(3), rs.getBytes(4))));
    tables.put("tool_results", packedRows(PackedRows.TOOL_RESULT_SELECT, PackedRows.TOOL_RESULT_COLUMNS, sessionId,
        rs -> PackedRows.toolResult(sessionId, rs.getString(1), rs.getString(2), rs.getBytes(3))));
    for (String table : RecordWriter.SESSION_TABLES) {
      if (!tables.containsKey(table)) {
        tables.put(table, rows("SELECT * FROM " + table + " WHERE session_id = ?", sessionId));
      }
    }
    return Optional.of(new TableRows(tables));
  }

  /** Whether the session {@code id} is stored. */
  /** Every distinct working folder recorded for a session, in no particular order. */
  public List<String> workingFolders() {
    return query("SELECT DISTINCT cwd FROM sessions WHERE cwd IS NOT NULL", List.of(), rs -> rs.getString(1));
  }

  public boolean hasSession(String id) {
    return !query("SELECT 1 FROM sessions WHERE id = ?", List.of(id), rs -> 1).isEmpty();
  }

  /** Session ids that start with {@code prefix} (for short ids typed by a person). */
  public List<String> sessionIdsStartingWith(String prefix, int limit) {
    String escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    return query("SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT " + limit,
        List.of(escaped + "%"), rs -> rs.getString(1));
  }

  public Page<SessionSummary> sessions(SessionQuery q) {
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    List<Object> args = new ArrayList<>();
    if (q.provider() != null) {
      where.append(" AND source = ?");
      args.add(q.provider().id());
    }
    if (q.project() != null) {
      where.append(" AND project = ?");
      args.add(q.project());
    }
    if (q.since() != null) {
      where.append(" AND ended_at >= ?");
      args.add(q.since());
    }
    if (!q.includeSubagents()) {
      where.append(" AND parent_session_id IS NULL");
    }
    long total = query("SELECT COUNT(*) FROM sessions" + where, args, rs -> rs.getLong(1)).get(0);
    List<Object> pageArgs = new ArrayList<>(args);
    pageArgs.add((long) q.limit());
    pageArgs.add((long) q.offset());
    List<SessionSummary> items = query("SELECT id, source, COALESCE(title, first_prompt), project, cwd, git_branch,"
        + " started_at, ended_at, message_count, parent_session_id, recorded_cost FROM sessions" + where
        + " ORDER BY " + dialect.descendingNullsLast("ended_at") + ", id LIMIT ? OFFSET ?", pageArgs,
        rs -> new SessionSummary(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9), rs.getString(10),
            recordedUsd(rs.getString(11))));
    return new Page<>(items, total, q.offset());
  }

  private static Double recordedUsd(String stored) {
    RecordedCost c = RecordedCost.decode(stored);
    return c == null ? null : c.totalUsd();
  }

  // Words as the index's unicode61 tokenizer splits them, so each is a single-token phrase.
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  /** Ranked full-text matches over visible message text, tool inputs and tool outputs. */
  public List<SearchHit> search(String text, int limit) {
    return search(text, SearchFilter.NONE, limit);
  }

  /** Ranked full-text matches in the sessions {@code filter} admits; the filter applies before the limit. */
  public List<SearchHit> search(String text, SearchFilter filter, int limit) {
    List<String> words = new ArrayList<>();
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      words.add(m.group());
    }
    if (words.isEmpty()) {
      throw new TranscriptException(Reason.BAD_QUERY, "the query '" + text + "' has no words to search for");
    }
    List<String> columns = new ArrayList<>();
    List<Object> args = new ArrayList<>();
    args.add(dialect.matchExpression(words));
    if (filter.provider() != null) {
      columns.add("source");
      args.add(filter.provider().id());
    }
    if (filter.project() != null) {
      columns.add("project");
      args.add(filter.project());
    }
    if (filter.sessionId() != null) {
      columns.add("id");
      args.add(filter.sessionId());
    }
    args.add((long) limit);
    record Raw(long doc, double rank) {}
    List<Raw> raw = query(dialect.searchSql(columns), args, rs -> new Raw(rs.getLong(1), rs.getDouble(2)));
    List<SearchHit> out = new ArrayList<>(raw.size());
    Map<String, String> titles = new LinkedHashMap<>();
    for (Raw h : raw) {
      SearchDocs kind = SearchDocs.ofDoc(h.doc());
      record Row(String sessionId, String ref, String body) {}
      Row row = first(query("SELECT session_id, " + kind.refColumn + ", " + kind.bodySql + " FROM " + kind.table
          + " WHERE rowid = ?", List.of(SearchDocs.rowidOf(h.doc())),
          rs -> new Row(rs.getString(1), rs.getString(2), rs.getString(3)))).orElse(null);
      if (row == null) {
        continue; // indexed by a writer that then failed to keep its row; nothing to show
      }
      // A session with neither title nor first prompt (a tool-only or empty session) has no title.
      String title = titles.computeIfAbsent(row.sessionId(), id -> first(query(
          "SELECT COALESCE(title, first_prompt) FROM sessions WHERE id = ?", List.of(id), rs -> rs.getString(1)))
          .orElse(null));
      out.add(new SearchHit(row.sessionId(), title, kind.label, row.ref(), Snippets.cut(row.body(), words),
          h.rank()));
    }
    return out;
  }

  /** A message that carries usage, with its session's provider: only what usage totals need. */
  public record UsageSample(String sessionId, String source, String uuid, long ordinal, String timestamp,
      String model, String responseId, TokenUsage usage) {}

  /** Streams every message that carries usage to {@code sink}; the caller decides how responses are counted. */
  public void forEachUsageMessage(Consumer<UsageSample> sink) {
    try (PreparedStatement p = c.prepareStatement("SELECT m.session_id, s.source, m.uuid, m.fields"
        + " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.has_usage = 1")) {
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          sink.accept(PackedRows.usageSample(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBytes(4)));
        }
      }
    } catch (SQLException e) {
      // Not retried (the sink has seen part of the rows); the next call gets a new connection.
      if (connectionLost(e)) {
        reconnect();
      }
      throw new TranscriptException(Reason.STORE_FAILURE, "cannot read usage: " + e.getMessage(), e);
    }
  }

  /**
   * Summed usage of the responses that count (ADR 0018), per session, day ({@code YYYY-MM-DD}, empty
   * if unknown), model (empty if unknown) and context bucket, with the session's provider and project.
   * {@code bucket} counts the {@link #contextBounds()} the responses' context exceeded; -1 holds
   * responses whose counts were negative or absurd (counted, tokens zero).
   */
  public record UsageTotal(String sessionId, String source, String project, String day, String model, int bucket,
      long responses, TokenUsage usage) {}

  /** The context sizes that separate the buckets of {@link UsageTotal}. */
  public static long[] contextBounds() {
    return UsageLedger.CONTEXT_BOUNDS.clone();
  }

  /** Streams the usage aggregates, of one session if {@code sessionId} is not null. */
  public void forEachUsageTotal(String sessionId, Consumer<UsageTotal> sink) {
    forEachUsageTotal(sessionId, null, null, sink);
  }

  /**
   * As {@link #forEachUsageTotal(String, Consumer)}, only days from {@code fromDay} to {@code toDay}
   * (YYYY-MM-DD as the transcripts wrote them, inclusive; null: no bound). A caller that wants local
   * days widens the range and filters again: the stored day is the timestamp's own date.
   */
  public void forEachUsageTotal(String sessionId, String fromDay, String toDay, Consumer<UsageTotal> sink) {
    usageRows("SELECT t.session_id, s.source, s.project, t.day, t.model, t.bucket, t.responses, t.input_tokens,"
        + " t.output_tokens, t.cache_read_tokens, t.cache_write_tokens, t.cache_write_1h_tokens FROM usage_totals t"
        + " JOIN sessions s ON s.id = t.session_id WHERE 1 = 1" + (sessionId == null ? "" : " AND t.session_id = ?")
        + (fromDay == null ? "" : " AND t.day >= ?") + (toDay == null ? "" : " AND t.day <= ?"),
        args(sessionId, fromDay, toDay), rs -> sink.accept(new UsageTotal(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5), rs.getInt(6), rs.getLong(7), new TokenUsage(rs.getLong(8), rs.getLong(9), rs.getLong(10),
            rs.getLong(11), rs.getLong(12)))));
  }

  /** The agent's own figure of each session's cost, for the sessions that have one (of one session if {@code sessionId} is not null). */
  public Map<String, Double> recordedCosts(String sessionId) {
    Map<String, Double> out = new java.util.TreeMap<>();
    usageRows("SELECT id, recorded_cost FROM sessions WHERE recorded_cost IS NOT NULL"
        + (sessionId == null ? "" : " AND id = ?"), sessionId,
        rs -> out.put(rs.getString(1), recordedUsd(rs.getString(2))));
    return out;
  }

  /** The agent's own figure of each session's cost, whole (of one session if {@code sessionId} is not null). */
  public Map<String, dev.agentdesk.transcripts.records.RecordedCost> recordedCostDetails(String sessionId) {
    Map<String, dev.agentdesk.transcripts.records.RecordedCost> out = new java.util.HashMap<>();
    usageRows("SELECT id, recorded_cost FROM sessions WHERE recorded_cost IS NOT NULL"
        + (sessionId == null ? "" : " AND id = ?"), sessionId, rs -> {
          dev.agentdesk.transcripts.records.RecordedCost c = RecordedCost.decode(rs.getString(2));
          if (c != null) {
            out.put(rs.getString(1), c);
          }
        });
    return out;
  }

  /**
   * One response that counts: the message whose copy of the usage is counted, with its time when
   * asked for and known (else null).
   */
  public record UsageResponse(String sessionId, String source, String project, String uuid, String day, String model,
      TokenUsage usage, Instant at) {}

  /**
   * Streams every response that counts, of one session if {@code sessionId} is not null (then in
   * ordinal order; the whole history comes in the table's order).
   */
  public void forEachUsageResponse(String sessionId, Consumer<UsageResponse> sink) {
    forEachUsageResponse(sessionId, false, sink);
  }

  /** As {@link #forEachUsageResponse(String, Consumer)}; with {@code times} each response also carries its time. */
  public void forEachUsageResponse(String sessionId, boolean times, Consumer<UsageResponse> sink) {
    forEachUsageResponse(sessionId, times, null, null, sink);
  }

  /**
   * As {@link #forEachUsageResponse(String, boolean, Consumer)}, only days from {@code fromDay} to
   * {@code toDay} (as {@link #forEachUsageTotal(String, String, String, Consumer)}).
   */
  public void forEachUsageResponse(String sessionId, boolean times, String fromDay, String toDay,
      Consumer<UsageResponse> sink) {
    String where = " WHERE c.winner = 1"
        + (sessionId == null ? "" : " AND c." + UsageLedger.OF_SESSION)
        + (fromDay == null ? "" : " AND c.day >= ?") + (toDay == null ? "" : " AND c.day <= ?");
    // The whole history is read in table order and its sessions' fields are taken from a map: a
    // join with sessions and a sort by session cost twice the scan itself on a 1 GB history (and
    // walking the primary-key index for the order, ten times). One session uses that index.
    Map<String, String[]> sessions = new HashMap<>();
    String cols = "c.session_id, c.uuid, c.day, c.model, c.input_tokens, c.output_tokens, c.cache_read_tokens,"
        + " c.cache_write_tokens, c.cache_write_1h_tokens, c.at_ms";
    String sql;
    if (sessionId == null) {
      usageRows("SELECT id, source, project FROM sessions", List.of(),
          rs -> sessions.put(rs.getString(1), new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}));
      sql = "SELECT " + cols + " FROM usage_candidates c" + where;
    } else {
      sql = "SELECT " + cols + ", s.source, s.project FROM usage_candidates c JOIN sessions s ON s.id = c.session_id"
          + where + " ORDER BY c.ordinal";
    }
    Map<String, String> names = new HashMap<>();
    usageRows(sql, args(sessionId, fromDay, toDay), rs -> {
      String[] session = sessionId == null ? sessions.get(rs.getString(1))
          : new String[] {rs.getString(1), rs.getString(11), rs.getString(12)};
      if (session == null) {
        return; // its session was written after the map was read: the next report has it
      }
      Instant at = null;
      if (times) {
        long ms = rs.getLong(10);
        at = rs.wasNull() ? null : Instant.ofEpochMilli(ms);
      }
      // days and models repeat on every row: one string each
      String day = names.computeIfAbsent(rs.getString(3), d -> d);
      String model = names.computeIfAbsent(rs.getString(4), m -> m);
      sink.accept(new UsageResponse(session[0], session[1], session[2], rs.getString(2), day, model,
          new TokenUsage(rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)), at));
    });
  }

  /**
   * The counted responses of one session, UTC hour, day, model and context bucket (as {@link
   * UsageTotal}), with the first and last response's time; both null for the responses without a
   * readable time, which come as one row per session, day, model and bucket.
   */
  public record UsageHour(String sessionId, String source, String project, String day, String model, int bucket,
      long responses, TokenUsage usage, Instant first, Instant last) {}

  /**
   * Streams the counted responses summed per (session, UTC hour, day, model, bucket), of one session
   * if {@code sessionId} is not null, days as {@link #forEachUsageTotal(String, String, String,
   * Consumer)}. The ledger keeps these sums (usage_hours, ADR 0042): a report by block or by another
   * zone's days reads one row per hour of work instead of one per response (ADR 0041). Exact for blocks: a block starts at a UTC hour
   * and lasts whole hours, and a gap of five hours cannot fall inside one hour.
   */
  public void forEachUsageHour(String sessionId, String fromDay, String toDay, Consumer<UsageHour> sink) {
    String sql = "SELECT session_id, day, model, bucket, hour, responses, input_tokens, output_tokens,"
        + " cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, first_ms, last_ms FROM usage_hours WHERE 1 = 1"
        + (sessionId == null ? "" : " AND session_id = ?")
        + (fromDay == null ? "" : " AND day >= ?") + (toDay == null ? "" : " AND day <= ?");
    Map<String, String[]> sessions = new HashMap<>();
    usageRows("SELECT id, source, project FROM sessions" + (sessionId == null ? "" : " WHERE id = ?"), sessionId,
        rs -> sessions.put(rs.getString(1), new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}));
    usageRows(sql, args(sessionId, fromDay, toDay), rs -> {
      String[] session = sessions.get(rs.getString(1));
      if (session == null) {
        return; // its session was written after the map was read: the next report has it
      }
      long first = rs.getLong(12);
      boolean untimed = rs.wasNull();
      long last = rs.getLong(13);
      sink.accept(new UsageHour(session[0], session[1], session[2], rs.getString(2), rs.getString(3), rs.getInt(4),
          rs.getLong(6), new TokenUsage(rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11)),
          untimed ? null : Instant.ofEpochMilli(first), untimed ? null : Instant.ofEpochMilli(last)));
    });
  }

  private interface RowSink {
    void accept(ResultSet rs) throws SQLException;
  }

  private static List<String> args(String... values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (v != null) {
        out.add(v);
      }
    }
    return out;
  }

  private void usageRows(String sql, String arg, RowSink sink) {
    usageRows(sql, arg == null ? List.of() : List.of(arg), sink);
  }

  private void usageRows(String sql, List<String> args, RowSink sink) {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        p.setString(i + 1, dialect.storableText(args.get(i)));
      }
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          sink.accept(rs);
        }
      }
    } catch (SQLException e) {
      if (connectionLost(e)) {
        reconnect();
      }
      throw new TranscriptException(Reason.STORE_FAILURE, "cannot read usage: " + e.getMessage(), e);
    }
  }

  /** Problems recorded for lines that were skipped, most recent files first. */
  public List<LineProblem> problems(int limit) {
    return query("SELECT path, line, reason FROM import_problems ORDER BY path, line LIMIT " + limit, List.of(),
        rs -> new LineProblem(rs.getString(1), rs.getLong(2), rs.getString(3)));
  }

  private static String key(Path file) {
    return file.toAbsolutePath().normalize().toString();
  }

  private interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /**
   * Whether {@code e} says the connection to the server is gone (PostgreSQL restarted, the session
   * was terminated, the network dropped): SQL states 08xxx and 57P0x. SQLite reports neither.
   */
  private static boolean connectionLost(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("08") || state.startsWith("57P"));
  }

  /** Replaces a lost connection with a new one (never after {@link #close}); false if that fails too. */
  private boolean reconnect() {
    if (closed) {
      return false;
    }
    try {
      c.close();
    } catch (SQLException ignored) {
      // it is gone already
    }
    try {
      Connection fresh = dialect.connect(url);
      try {
        dialect.configure(fresh);
      } catch (SQLException e) {
        fresh.close();
        throw e;
      }
      c = fresh;
      return true;
    } catch (SQLException e) {
      return false; // still unreachable: this call fails, the next one tries again
    }
  }

  private interface Read<T> {
    T run() throws SQLException;
  }

  /** Runs a read; if the server connection was lost, once more on a new connection. */
  private <T> T read(Read<T> work) throws SQLException {
    try {
      return work.run();
    } catch (SQLException e) {
      if (!connectionLost(e) || !reconnect()) {
        throw e;
      }
      return work.run();
    }
  }

  private <T> List<T> query(String sql, List<?> args, RowMapper<T> mapper) {
    try {
      return read(() -> queryOnce(sql, args, mapper));
    } catch (SQLException e) {
      String msg = e.getMessage() == null ? "" : e.getMessage();
      if (msg.toLowerCase(Locale.ROOT).contains("fts5")) {
        throw new TranscriptException(Reason.BAD_QUERY, "the search engine rejected the query: " + msg, e);
      }
      throw new TranscriptException(Reason.STORE_FAILURE, "database query failed: " + msg, e);
    }
  }

  private <T> List<T> queryOnce(String sql, List<?> args, RowMapper<T> mapper) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < args.size(); i++) {
        Object a = args.get(i);
        if (a instanceof Long l) {
          p.setLong(i + 1, l);
        } else {
          p.setString(i + 1, a == null ? null : dialect.storableText((String) a));
        }
      }
      List<T> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(mapper.map(rs));
        }
      }
      return out;
    }
  }

  private TableRows.Table packedRows(String sql, List<String> columns, String sessionId, RowMapper<Object[]> row) {
    return new TableRows.Table(columns, query(sql, List.of(sessionId), row));
  }

  private TableRows.Table rows(String sql, String arg) {
    try {
      return read(() -> rowsOnce(sql, arg));
    } catch (SQLException e) {
      throw new TranscriptException(Reason.STORE_FAILURE, "database query failed: " + e.getMessage(), e);
    }
  }

  private TableRows.Table rowsOnce(String sql, String arg) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setString(1, dialect.storableText(arg));
      List<Object[]> out = new ArrayList<>();
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        for (int i = 1; i <= n; i++) {
          columns.add(md.getColumnLabel(i).toLowerCase(Locale.ROOT));
        }
        while (rs.next()) {
          Object[] row = new Object[n];
          for (int i = 1; i <= n; i++) {
            Object v = rs.getObject(i);
            row[i - 1] = v instanceof Integer x ? (Object) x.longValue() : v;
          }
          out.add(row);
        }
      }
      return new TableRows.Table(columns, out);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      c.close();
    } catch (SQLException e) {
      throw new TranscriptException(Reason.STORE_FAILURE, "cannot close the database: " + e.getMessage(), e);
    }
  }
}
