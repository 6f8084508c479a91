package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.UsageLimit;
import dev.agentdesk.transcripts.records.UsageLimitRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest known usage windows, one row per (provider, window): what an agent's files reported
 * ({@code origin} {@code transcript}) or a supervised terminal showed ({@code terminal}). A report
 * replaces the row only when it was observed at or after the stored one, so re-reading an old file,
 * or files in any order, never puts an older figure back.
 */
final class UsageLimits {
  /** SQLite version 6, PostgreSQL version 4. Filled from new lines on; files read before are not read again. */
  static final String SCHEMA = """
      CREATE TABLE usage_limits (
        provider TEXT NOT NULL,
        limit_name TEXT NOT NULL,
        used_percent DOUBLE PRECISION,
        window_minutes BIGINT,
        resets_at TEXT,
        observed_at TEXT NOT NULL,
        session_id TEXT,
        origin TEXT NOT NULL,
        PRIMARY KEY (provider, limit_name)
      );
      """;

  private static final String UPSERT = "INSERT INTO usage_limits (provider, limit_name, used_percent, window_minutes,"
      + " resets_at, observed_at, session_id, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (provider, limit_name)"
      + " DO UPDATE SET used_percent = excluded.used_percent, window_minutes = excluded.window_minutes,"
      + " resets_at = excluded.resets_at, observed_at = excluded.observed_at, session_id = excluded.session_id,"
      + " origin = excluded.origin WHERE excluded.observed_at >= usage_limits.observed_at";

  /** The newest report per (provider, window) of one write transaction: only it reaches the table. */
  private final Map<String, UsageLimit> pending = new LinkedHashMap<>();

  void add(String provider, UsageLimitRecord r) {
    add(new UsageLimit(provider, r.window(), r.usedPercent(), r.windowMinutes(),
        r.resetsAt() == null ? null : Instant.parse(r.resetsAt()), Instant.parse(r.observedAt()), r.sessionId(),
        UsageLimit.Origin.TRANSCRIPT));
  }

  void add(UsageLimit l) {
    pending.merge(l.provider() + "\u0000" + l.window(), l, (a, b) -> b.observedAt().isBefore(a.observedAt()) ? a : b);
  }

  void finish(Connection c, SqlDialect dialect) throws SQLException {
    if (pending.isEmpty()) {
      return;
    }
    try (PreparedStatement p = c.prepareStatement(UPSERT)) {
      for (UsageLimit l : pending.values()) {
        p.setString(1, l.provider());
        p.setString(2, dialect.storableText(l.window()));
        if (l.usedPercent() == null) {
          p.setNull(3, Types.DOUBLE);
        } else {
          p.setDouble(3, l.usedPercent());
        }
        if (l.windowMinutes() == null) {
          p.setNull(4, Types.BIGINT);
        } else {
          p.setLong(4, l.windowMinutes());
        }
        p.setString(5, l.resetsAt() == null ? null : l.resetsAt().toString());
        // ISO instants of one fixed form, so that text order is time order in the WHERE above
        p.setString(6, Stamp.of(l.observedAt()));
        p.setString(7, l.sessionId() == null ? null : dialect.storableText(l.sessionId()));
        p.setString(8, l.origin().name().toLowerCase(java.util.Locale.ROOT));
        p.addBatch();
      }
      p.executeBatch();
    }
    pending.clear();
  }

  static List<UsageLimit> read(ResultSet rs) throws SQLException {
    List<UsageLimit> out = new ArrayList<>();
    while (rs.next()) {
      double used = rs.getDouble(3);
      Double usedOrNull = rs.wasNull() ? null : used;
      long minutes = rs.getLong(4);
      Long minutesOrNull = rs.wasNull() ? null : minutes;
      String resets = rs.getString(5);
      out.add(new UsageLimit(rs.getString(1), rs.getString(2), usedOrNull, minutesOrNull,
          resets == null ? null : Instant.parse(resets), Instant.parse(rs.getString(6)), rs.getString(7),
          UsageLimit.Origin.valueOf(rs.getString(8).toUpperCase(java.util.Locale.ROOT))));
    }
    return out;
  }

  static final String SELECT = "SELECT provider, limit_name, used_percent, window_minutes, resets_at, observed_at,"
      + " session_id, origin FROM usage_limits ORDER BY provider, limit_name";

  /** Fixed-width UTC instants with milliseconds, the form transcripts' timestamps are normalised to. */
  static final class Stamp {
    private static final java.time.format.DateTimeFormatter FORMAT = java.time.format.DateTimeFormatter
        .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);

    static String of(Instant i) {
      return FORMAT.format(i);
    }
  }
}
