package dev.agentdesk.reliability;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * A canonical text dump of a history database: every row of every table, columns in schema
 * order, rows sorted, minus what legitimately differs between two correct imports — wall-clock
 * stamps and surrogate row ids (the message a usage candidate belongs to, which is checked instead:
 * the dump counts candidates whose message row is not theirs). The FTS index is checked with FTS5's
 * own integrity check rather than dumped.
 */
final class CanonicalDump {
  private static final Set<String> VOLATILE_COLUMNS = Set.of("updated_at", "applied_at");
  /** Row ids handed out in write order, which a resumed import gives out differently: table.column. */
  private static final Set<String> SURROGATE_COLUMNS = Set.of("usage_candidates.message_rowid");

  private CanonicalDump() {}

  static String of(Path db) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)");
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' "
          + "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_fts%' ORDER BY name")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      StringBuilder out = new StringBuilder();
      for (String table : tables) {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
          ResultSetMetaData md = rs.getMetaData();
          while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
              String col = md.getColumnName(i);
              if (VOLATILE_COLUMNS.contains(col) || SURROGATE_COLUMNS.contains(table + "." + col)) {
                continue;
              }
              // BLOBs (packed record fields) as hex: their bytes are not text.
              Object v = rs.getObject(i);
              row.append(col).append('=').append(v instanceof byte[] b ? HexFormat.of().formatHex(b) : rs.getString(i))
                  .append('\u001f');
            }
            rows.add(row.toString());
          }
        }
        rows.sort(null);
        out.append("## ").append(table).append(" (").append(rows.size()).append(" rows)\n");
        rows.forEach(r -> out.append(r).append('\n'));
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM usage_candidates c WHERE NOT EXISTS (SELECT 1 FROM"
          + " messages m WHERE m.rowid = c.message_rowid AND m.session_id = c.session_id AND m.uuid = c.uuid)")) {
        rs.next();
        out.append("## usage candidates not keyed by their own message: ").append(rs.getLong(1)).append('\n');
      }
      return out.toString();
    }
  }
}
