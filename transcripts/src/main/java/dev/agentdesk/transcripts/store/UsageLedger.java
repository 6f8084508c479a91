package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Usage aggregates kept in the writer's transaction, so they can never be out of step with the
 * records (ADR 0018). Every message that carries usage is a <em>candidate</em> for its response
 * (messages sharing a response id share one usage); the <em>winner</em> of a response is the
 * candidate with the largest output (then the smaller session id, then the smaller ordinal), the
 * same rule the session detail counts by. {@code usage_totals} holds the winners' tokens summed per
 * (session, day, model, context bucket): a report reads a few thousand rows instead of every
 * message.
 *
 * <p>The context bucket counts how many of {@link #CONTEXT_BOUNDS} a response's context (input +
 * cache read + cache write) exceeds, so tiered prices ("above 200k tokens") can be applied to the
 * sums exactly; {@link #REJECTED} collects responses whose counts are not {@link TokenUsage#plausible}, which are
 * counted but not summed. A price table whose tiers start elsewhere is priced from the winners'
 * rows instead.
 */
final class UsageLedger {
  /** Context sizes above which some bundled price changes (genai-prices 0.1.8). Changing them needs a migration. */
  static final long[] CONTEXT_BOUNDS = {128_000, 200_000, 271_999, 272_000};
  /** The bucket of responses whose counts are negative or absurd. */
  static final int REJECTED = -1;

  static final String SCHEMA = """
      CREATE TABLE usage_candidates (
        session_id TEXT NOT NULL,
        uuid TEXT NOT NULL,
        response_key TEXT NOT NULL,
        ordinal BIGINT NOT NULL,
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cache_read_tokens BIGINT NOT NULL,
        cache_write_tokens BIGINT NOT NULL,
        cache_write_1h_tokens BIGINT NOT NULL,
        winner INTEGER NOT NULL,
        PRIMARY KEY (session_id, uuid)
      );
      CREATE INDEX usage_candidates_key ON usage_candidates(response_key);
      CREATE TABLE usage_totals (
        session_id TEXT NOT NULL,
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        responses BIGINT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cache_read_tokens BIGINT NOT NULL,
        cache_write_tokens BIGINT NOT NULL,
        cache_write_1h_tokens BIGINT NOT NULL,
        PRIMARY KEY (session_id, day, model, bucket)
      );
      """;

  /**
   * Each candidate's time (epoch milliseconds, null when its message has no readable timestamp), so
   * reports by block or by another zone's days need not read every response's message (ADR 0038).
   * The ledger is rebuilt after it: every older candidate gets its time.
   */
  static final String RESPONSE_TIMES = """
      ALTER TABLE usage_candidates ADD COLUMN at_ms BIGINT;
      """;

  /**
   * Candidates keyed by their message's rowid, found by a 64-bit hash of their response key
   * ({@link #keyHash}) instead of by two text indexes (ADR 0045): the rows are appended in the
   * messages' order and the one index is of integers. On the 1 GB corpus of {@code ./bench history}
   * the candidates took 225 MB of the 1,149 MB database and ~6 s of the import's writer thread.
   * The version that adds it fills the ledger anew from the stored messages ({@link #rebuild}, which
   * empties the totals and hour sums first): the hash is computed in Java, and so are the winners.
   */
  static final String BY_MESSAGE = """
      DROP TABLE usage_candidates;
      CREATE TABLE usage_candidates (
        message_rowid INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        uuid TEXT NOT NULL,
        response_key TEXT NOT NULL,
        key_hash BIGINT NOT NULL,
        ordinal BIGINT NOT NULL,
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cache_read_tokens BIGINT NOT NULL,
        cache_write_tokens BIGINT NOT NULL,
        cache_write_1h_tokens BIGINT NOT NULL,
        winner INTEGER NOT NULL,
        at_ms BIGINT
      );
      CREATE INDEX usage_candidates_key ON usage_candidates(key_hash);
      """;

  /**
   * FNV-1a over the UTF-16 units of a response key as stored: what {@code usage_candidates.key_hash}
   * holds. Stored, so it never changes; a collision only costs a row read (keys are compared).
   */
  static long keyHash(String storedKey) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < storedKey.length(); i++) {
      h ^= storedKey.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** The hour of candidates without a time: no hour of a real instant (those are within ±2.6e12). */
  static final long UNTIMED = -Long.MAX_VALUE;

  private static final long HOUR_MS = 3_600_000L;

  /**
   * The winners' tokens summed per (session, UTC hour, day, model, context bucket), with the first
   * and last time in each: what reports by block and by another zone's days read (ADR 0042). A
   * block's edges are whole hours, so a block never splits an hour's group (ADR 0041). The version
   * that adds it fills it from the stored candidates.
   */
  static final String HOURS = """
      CREATE TABLE usage_hours (
        session_id TEXT NOT NULL,
        hour BIGINT NOT NULL,
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        responses BIGINT NOT NULL,
        input_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        cache_read_tokens BIGINT NOT NULL,
        cache_write_tokens BIGINT NOT NULL,
        cache_write_1h_tokens BIGINT NOT NULL,
        first_ms BIGINT,
        last_ms BIGINT,
        PRIMARY KEY (session_id, hour, day, model, bucket)
      );
      """ + "INSERT INTO usage_hours (session_id, hour, day, model, bucket, responses, input_tokens, output_tokens,"
      + " cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, first_ms, last_ms)"
      + " SELECT session_id, h, day, model, b, COUNT(*), " + keptSums() + ", MIN(at_ms), MAX(at_ms) FROM"
      + " (SELECT session_id, day, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
      + " cache_write_1h_tokens, at_ms, " + bucketSql() + " AS b, " + hourSql() + " AS h"
      + " FROM usage_candidates WHERE winner = 1) w GROUP BY session_id, h, day, model, b;\n";

  /** The five token sums of a group, nothing for the rejected bucket (as {@link #add} keeps them). */
  private static String keptSums() {
    StringBuilder sql = new StringBuilder();
    for (String col : List.of("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
        "cache_write_1h_tokens")) {
      sql.append(sql.length() == 0 ? "" : ", ").append("SUM(CASE WHEN b = ").append(REJECTED).append(" THEN 0 ELSE ")
          .append(col).append(" END)");
    }
    return sql.toString();
  }

  /** {@link #bucket} in SQL, over a candidate's columns. */
  private static String bucketSql() {
    String absurd = Long.toString(TokenUsage.ABSURD);
    StringBuilder sql = new StringBuilder("CASE WHEN NOT (input_tokens >= 0 AND output_tokens >= 0"
        + " AND cache_read_tokens >= 0 AND cache_write_tokens >= 0 AND cache_write_1h_tokens >= 0"
        + " AND input_tokens <= " + absurd + " AND output_tokens <= " + absurd + " AND cache_read_tokens <= " + absurd
        + " AND cache_write_tokens <= " + absurd + ") THEN " + REJECTED + " ELSE 0");
    for (long bound : CONTEXT_BOUNDS) {
      sql.append(" + CASE WHEN input_tokens + cache_read_tokens + cache_write_tokens > ").append(bound)
          .append(" THEN 1 ELSE 0 END");
    }
    return sql.append(" END").toString();
  }

  /** {@link #hourOf} in SQL: floor division (SQL's integer division truncates towards zero, before 1970). */
  private static String hourSql() {
    return "CASE WHEN at_ms IS NULL THEN " + UNTIMED + " WHEN at_ms >= 0 THEN at_ms / " + HOUR_MS
        + " ELSE (at_ms - " + (HOUR_MS - 1) + ") / " + HOUR_MS + " END";
  }

  static long hourOf(Long atMs) {
    return atMs == null ? UNTIMED : Math.floorDiv(atMs, HOUR_MS);
  }

  private static final String COLS = "session_id, uuid, response_key, ordinal, day, model, input_tokens,"
      + " output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, at_ms, message_rowid";
  /** The stored candidates of one session: by their messages (the candidates have no session index). */
  static final String OF_SESSION = "message_rowid IN (SELECT rowid FROM messages WHERE session_id = ?)";
  private static final int IN_CHUNK = 400;

  /** A message's claim on its response's usage; {@code rowid}: its message's. */
  record Candidate(String key, String sessionId, String uuid, long ordinal, String day, String model, TokenUsage u,
      Long atMs, long rowid) {

    /** Whether this copy counts rather than {@code o}: larger output, then smaller session id, then ordinal. */
    boolean beats(Candidate o) {
      if (u.output() != o.u.output()) {
        return u.output() > o.u.output();
      }
      int s = sessionId.compareTo(o.sessionId);
      if (s != 0) {
        return s < 0;
      }
      return ordinal <= o.ordinal;
    }
  }

  /** The response key of a message: its response id, else the message itself. */
  static String responseKey(String sessionId, String uuid, String responseId) {
    return responseId != null ? "r:" + responseId : "m:" + sessionId + '\u001f' + uuid;
  }

  /**
   * A transcript's timestamp in epoch milliseconds, or null when it is missing or unreadable: an
   * instant ({@code Z}), else with an offset, else with a zone name.
   */
  static Long epochMillis(String timestamp) {
    if (timestamp == null || timestamp.isEmpty()) {
      return null;
    }
    long fast = utcMillis(timestamp);
    if (fast != NOT_PLAIN) {
      return fast;
    }
    try {
      return instant(timestamp).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      return null; // unreadable, or a year too far out for milliseconds (+999999999-…): no time
    }
  }

  private static final long NOT_PLAIN = Long.MIN_VALUE;

  /**
   * {@code YYYY-MM-DDTHH:MM:SS[.fraction]Z}, the form every agent writes, read by hand: {@link
   * Instant#parse} is ~1 µs a call on the import's writer thread, once per model response. Anything
   * else (another form, an impossible date, a leap second) is {@link #NOT_PLAIN}, for the parsers.
   */
  static long utcMillis(String t) {
    int n = t.length();
    if (n < 20 || n > 30 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
        || t.charAt(16) != ':' || t.charAt(n - 1) != 'Z' || (n > 20 && (n == 21 || t.charAt(19) != '.'))) {
      return NOT_PLAIN;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    int millis = 0;
    for (int i = 20; i < n - 1; i++) {
      int d = t.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return NOT_PLAIN;
      }
      if (i < 23) {
        millis = millis * 10 + d;
      }
    }
    for (int i = Math.min(n - 1, 23); i < 23; i++) {
      millis *= 10;  // ".5" is 500 ms
    }
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > java.time.YearMonth.of(year, month).lengthOfMonth()
        || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return NOT_PLAIN;
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
  }

  /** The decimal number of {@code count} digits at {@code from}; -1 when one is not a digit. */
  private static int digits(String t, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      int d = t.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  private static Instant instant(String timestamp) {
    try {
      return Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(timestamp).toInstant();
      } catch (DateTimeParseException e2) {
        return ZonedDateTime.parse(timestamp).toInstant();
      }
    }
  }

  static String day(String timestamp) {
    return timestamp != null && timestamp.length() >= 10 ? timestamp.substring(0, 10) : "";
  }

  static int bucket(TokenUsage u) {
    if (!u.plausible()) {
      return REJECTED;
    }
    long context = u.input() + u.cacheRead() + u.cacheCreation();
    int b = 0;
    for (long bound : CONTEXT_BOUNDS) {
      if (context > bound) {
        b++;
      }
    }
    return b;
  }

  private final Connection c;
  private final SqlDialect dialect;
  /** Candidates of this transaction by message rowid, written in {@link #finish} with their winner flag. */
  private final Map<Long, Candidate> pending = new HashMap<>();
  /** Responses whose winner may have changed. */
  private final Set<String> dirty = new LinkedHashSet<>();
  /** Responses that lost a stored candidate: their winner is looked for among all stored candidates. */
  private final Set<String> rescan = new HashSet<>();
  /** Stored candidates already removed in this transaction (by message rowid). */
  private final Set<Long> removed = new HashSet<>();
  /** Sums to add to usage_totals, by (session, day, model, bucket). */
  private final Map<List<Object>, long[]> deltas = new HashMap<>();
  /** Sums to add to usage_hours, with the added winners' first and last times. */
  private final Map<HourKey, HourDelta> hourDeltas = new HashMap<>();

  /** A row of usage_hours. */
  private record HourKey(String sessionId, long hour, String day, String model, int bucket) {}

  /** What a transaction changes in one usage_hours row. */
  private static final class HourDelta {
    final long[] sums = new long[6];
    Long first;
    Long last;
    /** A winner left the row: its first and last time are read again from the candidates. */
    boolean shrunk;
  }

  UsageLedger(Connection c, SqlDialect dialect) {
    this.c = c;
    this.dialect = dialect;
  }

  /**
   * A message was written as row {@code rowid} of messages; {@code storedBefore}: the row existed
   * before this transaction.
   */
  void message(MessageRecord m, long rowid, boolean storedBefore) throws SQLException {
    Long id = rowid;
    if (storedBefore && removed.add(id)) {
      removeStored(rowid);
    }
    Candidate prev;
    if (m.usage() == null) {
      prev = pending.remove(id);
    } else {
      Candidate now = new Candidate(responseKey(m.sessionId(), m.uuid(), m.responseId()), m.sessionId(), m.uuid(),
          m.ordinal(), day(m.timestamp()), m.model() == null ? "" : m.model(), m.usage(), epochMillis(m.timestamp()),
          rowid);
      prev = pending.put(id, now);
      dirty.add(now.key());
    }
    if (prev != null) {
      dirty.add(prev.key());
    }
  }

  /** The session's rows are deleted (its totals with them); responses it won look for a new winner. */
  void deleteSession(String sessionId) throws SQLException {
    pending.values().removeIf(p -> {
      if (p.sessionId().equals(sessionId)) {
        dirty.add(p.key());
        return true;
      }
      return false;
    });
    deltas.keySet().removeIf(k -> k.get(0).equals(sessionId));
    hourDeltas.keySet().removeIf(k -> k.sessionId().equals(sessionId));
    try (PreparedStatement p = c.prepareStatement(
        "SELECT DISTINCT response_key FROM usage_candidates WHERE " + OF_SESSION + " AND winner = 1")) {
      p.setString(1, dialect.storableText(sessionId));
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          dirty.add(rs.getString(1));
          rescan.add(rs.getString(1));
        }
      }
    }
    try (PreparedStatement p = c.prepareStatement("DELETE FROM usage_candidates WHERE " + OF_SESSION)) {
      p.setString(1, dialect.storableText(sessionId));
      p.executeUpdate();
    }
    for (String table : List.of("usage_totals", "usage_hours")) {
      try (PreparedStatement p = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
        p.setString(1, dialect.storableText(sessionId));
        p.executeUpdate();
      }
    }
  }

  private void removeStored(long rowid) throws SQLException {
    Candidate old = null;
    boolean winner = false;
    try (PreparedStatement p = c.prepareStatement("SELECT " + COLS + ", winner FROM usage_candidates"
        + " WHERE message_rowid = ?")) {
      p.setLong(1, rowid);
      try (ResultSet rs = p.executeQuery()) {
        if (rs.next()) {
          old = candidate(rs);
          winner = rs.getInt(14) == 1;
        }
      }
    }
    if (old == null) {
      return;
    }
    if (winner) {
      add(old, -1);
    }
    dirty.add(old.key());
    rescan.add(old.key());
    try (PreparedStatement p = c.prepareStatement("DELETE FROM usage_candidates WHERE message_rowid = ?")) {
      p.setLong(1, rowid);
      p.executeUpdate();
    }
  }

  /** Decides the winners of the responses this transaction touched and writes candidates and totals. */
  void finish() throws SQLException {
    if (dirty.isEmpty()) {
      return;
    }
    Map<String, List<Candidate>> fresh = new HashMap<>();
    for (Candidate p : pending.values()) {
      fresh.computeIfAbsent(p.key(), k -> new ArrayList<>(1)).add(p);
    }
    List<String> keys = new ArrayList<>(dirty);
    Map<String, Candidate> oldWinner = new HashMap<>();
    Map<String, List<Candidate>> stored = new HashMap<>();
    select(keys, " AND winner = 1", (k, cand) -> oldWinner.put(k, cand));
    select(new ArrayList<>(rescan), "", (k, cand) -> stored.computeIfAbsent(k, x -> new ArrayList<>()).add(cand));
    Set<Long> pendingWinners = new HashSet<>();
    try (PreparedStatement flag = c.prepareStatement("UPDATE usage_candidates SET winner = ? WHERE message_rowid = ?")) {
      for (String key : keys) {
        Candidate was = oldWinner.get(key);
        Candidate best = rescan.contains(key) ? null : was;
        for (Candidate s : stored.getOrDefault(key, List.of())) {
          best = best == null || s.beats(best) ? s : best;
        }
        for (Candidate f : fresh.getOrDefault(key, List.of())) {
          best = best == null || f.beats(best) ? f : best;
        }
        if (was != null && (best == null || best.rowid() != was.rowid())) {
          add(was, -1);
          setFlag(flag, was, 0);
        }
        if (best != null && (was == null || best.rowid() != was.rowid())) {
          add(best, 1);
          if (pending.get(best.rowid()) == best) {
            pendingWinners.add(best.rowid());
          } else {
            setFlag(flag, best, 1);
          }
        }
      }
      flag.executeBatch();
    }
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO usage_candidates (" + COLS + ", winner, key_hash)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_rowid) DO UPDATE SET"
        + " session_id = excluded.session_id, uuid = excluded.uuid, key_hash = excluded.key_hash,"
        + " response_key = excluded.response_key, ordinal = excluded.ordinal, day = excluded.day,"
        + " model = excluded.model, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,"
        + " cache_read_tokens = excluded.cache_read_tokens, cache_write_tokens = excluded.cache_write_tokens,"
        + " cache_write_1h_tokens = excluded.cache_write_1h_tokens, at_ms = excluded.at_ms,"
        + " winner = excluded.winner")) {
      for (Candidate p : pending.values()) {
        String key = dialect.storableText(p.key());
        ins.setString(1, dialect.storableText(p.sessionId()));
        ins.setString(2, dialect.storableText(p.uuid()));
        ins.setString(3, key);
        ins.setLong(4, p.ordinal());
        ins.setString(5, p.day());
        ins.setString(6, dialect.storableText(p.model()));
        ins.setLong(7, p.u().input());
        ins.setLong(8, p.u().output());
        ins.setLong(9, p.u().cacheRead());
        ins.setLong(10, p.u().cacheCreation());
        ins.setLong(11, p.u().cacheCreation1h());
        setNullable(ins, 12, p.atMs());
        ins.setLong(13, p.rowid());
        ins.setInt(14, pendingWinners.contains(p.rowid()) ? 1 : 0);
        ins.setLong(15, keyHash(key));
        ins.addBatch();
      }
      ins.executeBatch();
    }
    try (PreparedStatement up = c.prepareStatement("INSERT INTO usage_totals (session_id, day, model, bucket,"
        + " responses, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, day, model, bucket) DO UPDATE SET"
        + " responses = usage_totals.responses + excluded.responses,"
        + " input_tokens = usage_totals.input_tokens + excluded.input_tokens,"
        + " output_tokens = usage_totals.output_tokens + excluded.output_tokens,"
        + " cache_read_tokens = usage_totals.cache_read_tokens + excluded.cache_read_tokens,"
        + " cache_write_tokens = usage_totals.cache_write_tokens + excluded.cache_write_tokens,"
        + " cache_write_1h_tokens = usage_totals.cache_write_1h_tokens + excluded.cache_write_1h_tokens")) {
      for (Map.Entry<List<Object>, long[]> e : deltas.entrySet()) {
        long[] d = e.getValue();
        up.setString(1, dialect.storableText((String) e.getKey().get(0)));
        up.setString(2, (String) e.getKey().get(1));
        up.setString(3, dialect.storableText((String) e.getKey().get(2)));
        up.setInt(4, (Integer) e.getKey().get(3));
        for (int i = 0; i < 6; i++) {
          up.setLong(5 + i, d[i]);
        }
        up.addBatch();
      }
      up.executeBatch();
    }
    try (PreparedStatement empty = c.prepareStatement("DELETE FROM usage_totals WHERE responses <= 0")) {
      empty.executeUpdate();
    }
    writeHours();
    pending.clear();
    dirty.clear();
    rescan.clear();
    removed.clear();
    deltas.clear();
    hourDeltas.clear();
  }

  private static final String HOUR_KEY = "session_id = ? AND hour = ? AND day = ? AND model = ? AND bucket = ?";

  /**
   * Adds this transaction's hour sums; a row a winner left loses it too, and then its first and last
   * time are read again from the winners (a minimum cannot be taken back), or the row goes when no
   * response is left in it. Run after the candidates and their winner flags are written.
   */
  private void writeHours() throws SQLException {
    List<HourKey> shrunk = new ArrayList<>();
    try (PreparedStatement up = c.prepareStatement("INSERT INTO usage_hours (session_id, hour, day, model, bucket,"
        + " responses, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,"
        + " first_ms, last_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        + " ON CONFLICT (session_id, hour, day, model, bucket) DO UPDATE SET"
        + " responses = usage_hours.responses + excluded.responses,"
        + " input_tokens = usage_hours.input_tokens + excluded.input_tokens,"
        + " output_tokens = usage_hours.output_tokens + excluded.output_tokens,"
        + " cache_read_tokens = usage_hours.cache_read_tokens + excluded.cache_read_tokens,"
        + " cache_write_tokens = usage_hours.cache_write_tokens + excluded.cache_write_tokens,"
        + " cache_write_1h_tokens = usage_hours.cache_write_1h_tokens + excluded.cache_write_1h_tokens,"
        // portable MIN/MAX of two values where either may be NULL (SQLite's min() is NULL then)
        + " first_ms = CASE WHEN usage_hours.first_ms IS NULL OR excluded.first_ms < usage_hours.first_ms"
        + " THEN excluded.first_ms ELSE usage_hours.first_ms END,"
        + " last_ms = CASE WHEN usage_hours.last_ms IS NULL OR excluded.last_ms > usage_hours.last_ms"
        + " THEN excluded.last_ms ELSE usage_hours.last_ms END")) {
      for (Map.Entry<HourKey, HourDelta> e : hourDeltas.entrySet()) {
        HourKey k = e.getKey();
        HourDelta d = e.getValue();
        bindHourKey(up, k);
        for (int i = 0; i < 6; i++) {
          up.setLong(6 + i, d.sums[i]);
        }
        setNullable(up, 12, d.first);
        setNullable(up, 13, d.last);
        up.addBatch();
        if (d.shrunk) {
          shrunk.add(k);
        }
      }
      up.executeBatch();
    }
    if (shrunk.isEmpty()) {
      return;
    }
    try (PreparedStatement gone = c.prepareStatement("DELETE FROM usage_hours WHERE " + HOUR_KEY + " AND responses <= 0");
        PreparedStatement times = c.prepareStatement("SELECT at_ms, input_tokens, output_tokens, cache_read_tokens,"
            + " cache_write_tokens, cache_write_1h_tokens FROM usage_candidates WHERE session_id = ? AND winner = 1"
            + " AND at_ms >= ? AND at_ms < ? AND day = ? AND model = ?");
        PreparedStatement set = c.prepareStatement("UPDATE usage_hours SET first_ms = ?, last_ms = ? WHERE " + HOUR_KEY)) {
      for (HourKey k : shrunk) {
        bindHourKey(gone, k);
        gone.addBatch();
        if (k.hour() == UNTIMED) {
          continue; // no times to read again
        }
        times.setString(1, dialect.storableText(k.sessionId()));
        times.setLong(2, k.hour() * HOUR_MS);
        times.setLong(3, (k.hour() + 1) * HOUR_MS);
        times.setString(4, k.day());
        times.setString(5, dialect.storableText(k.model()));
        Long first = null;
        Long last = null;
        try (ResultSet rs = times.executeQuery()) {
          while (rs.next()) {
            TokenUsage u = new TokenUsage(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6));
            if (bucket(u) == k.bucket()) {
              long at = rs.getLong(1);
              first = first == null ? at : Math.min(first, at);
              last = last == null ? at : Math.max(last, at);
            }
          }
        }
        if (first != null) {
          set.setLong(1, first);
          set.setLong(2, last);
          bindHourKey(set, 3, k);
          set.addBatch();
        }
      }
      gone.executeBatch();
      set.executeBatch();
    }
  }

  private void bindHourKey(PreparedStatement p, HourKey k) throws SQLException {
    bindHourKey(p, 1, k);
  }

  private void bindHourKey(PreparedStatement p, int from, HourKey k) throws SQLException {
    p.setString(from, dialect.storableText(k.sessionId()));
    p.setLong(from + 1, k.hour());
    p.setString(from + 2, k.day());
    p.setString(from + 3, dialect.storableText(k.model()));
    p.setInt(from + 4, k.bucket());
  }

  private static void setNullable(PreparedStatement p, int index, Long value) throws SQLException {
    if (value == null) {
      p.setNull(index, Types.BIGINT);
    } else {
      p.setLong(index, value);
    }
  }

  /**
   * Messages read for a rebuild, a chunk at a time: each chunk's winners are decided against the
   * winners stored by the chunks before it, as an import's transactions are, so a large history
   * is never held whole in memory (1.2 GB for the 1 GB corpus of {@code ./bench history}).
   */
  private static final int REBUILD_CHUNK = 20_000;

  private void rebuildChunk(List<MessageRecord> chunk, List<Long> rowids) throws SQLException {
    for (int i = 0; i < chunk.size(); i++) {
      message(chunk.get(i), rowids.get(i), false);
    }
    finish();
    chunk.clear();
    rowids.clear();
  }

  private void setFlag(PreparedStatement flag, Candidate cand, int winner) throws SQLException {
    flag.setInt(1, winner);
    flag.setLong(2, cand.rowid());
    flag.addBatch();
  }

  /** Adds ({@code sign} 1) or removes (-1) a winner's tokens from its totals row and its hour's row. */
  private void add(Candidate w, int sign) {
    int bucket = bucket(w.u());
    long[] d = deltas.computeIfAbsent(List.of(w.sessionId(), w.day(), w.model(), bucket), k -> new long[6]);
    addTokens(d, w, sign, bucket);
    HourDelta h = hourDeltas.computeIfAbsent(new HourKey(w.sessionId(), hourOf(w.atMs()), w.day(), w.model(), bucket),
        k -> new HourDelta());
    addTokens(h.sums, w, sign, bucket);
    if (sign < 0) {
      h.shrunk = true;
    } else if (w.atMs() != null) {
      h.first = h.first == null ? w.atMs() : Math.min(h.first, w.atMs());
      h.last = h.last == null ? w.atMs() : Math.max(h.last, w.atMs());
    }
  }

  private static void addTokens(long[] d, Candidate w, int sign, int bucket) {
    d[0] += sign;
    if (bucket != REJECTED) {
      d[1] += sign * w.u().input();
      d[2] += sign * w.u().output();
      d[3] += sign * w.u().cacheRead();
      d[4] += sign * w.u().cacheCreation();
      d[5] += sign * w.u().cacheCreation1h();
    }
  }

  private interface Sink {
    void accept(String key, Candidate c);
  }

  /** The stored candidates of {@code keys}, found by their keys' hashes; a row of another key (a collision) is skipped. */
  private void select(List<String> keys, String where, Sink sink) throws SQLException {
    for (int from = 0; from < keys.size(); from += IN_CHUNK) {
      List<String> part = keys.subList(from, Math.min(keys.size(), from + IN_CHUNK));
      String sql = "SELECT " + COLS + " FROM usage_candidates WHERE key_hash IN ("
          + "?, ".repeat(part.size() - 1) + "?)" + where;
      Map<String, String> byStored = new HashMap<>();
      try (PreparedStatement p = c.prepareStatement(sql)) {
        for (int i = 0; i < part.size(); i++) {
          String stored = dialect.storableText(part.get(i));
          byStored.put(stored, part.get(i));
          p.setLong(i + 1, keyHash(stored));
        }
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            Candidate cand = candidate(rs);
            String key = byStored.get(cand.key());
            if (key != null) {
              sink.accept(key, cand);
            }
          }
        }
      }
    }
  }

  private static Candidate candidate(ResultSet rs) throws SQLException {
    return new Candidate(rs.getString(3), rs.getString(1), rs.getString(2), rs.getLong(4), rs.getString(5),
        rs.getString(6), new TokenUsage(rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11)),
        rs.getObject(12) == null ? null : rs.getLong(12), rs.getLong(13));
  }

  /**
   * Fills the aggregates anew from the stored messages (the migration that keys candidates by
   * their message, {@link #BY_MESSAGE}): every message with usage becomes a candidate, as if the
   * whole history were imported at once.
   */
  static void rebuild(Connection c, SqlDialect dialect) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DELETE FROM usage_candidates");
      s.execute("DELETE FROM usage_totals");
      s.execute("DELETE FROM usage_hours");
    }
    UsageLedger ledger = new UsageLedger(c, dialect);
    List<MessageRecord> chunk = new ArrayList<>(REBUILD_CHUNK);
    List<Long> rowids = new ArrayList<>(REBUILD_CHUNK);
    try (PreparedStatement p = c.prepareStatement(
        "SELECT session_id, uuid, fields, rowid FROM messages WHERE has_usage = 1 ORDER BY rowid");
        ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        Object[] r = PackedRows.message(rs.getString(1), rs.getString(2), null, rs.getBytes(3));
        chunk.add(PackedRows.usageRecord(r));
        rowids.add(rs.getLong(4));
        if (chunk.size() == REBUILD_CHUNK) {
          ledger.rebuildChunk(chunk, rowids);
        }
      }
    }
    ledger.rebuildChunk(chunk, rowids);
  }
}
