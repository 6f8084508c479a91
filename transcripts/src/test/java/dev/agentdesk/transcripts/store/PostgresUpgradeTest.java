package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A PostgreSQL database at version 2 (before the agent's figures of a session) opens at today's version:
 * the session columns exist, the stored session is intact, and only the Claude Code cursors are
 * dropped, so those files are read once more.
 */
@ExtendWith(PostgresExtension.class)
class PostgresUpgradeTest {
  @Test
  void aVersion2DatabaseGainsTheSessionColumnsAndDropsOnlyClaudeCursors(PostgresServer pg) throws Exception {
    String url = pg.createDatabase();
    PostgresDialect dialect = new PostgresDialect();
    try (Connection c = DriverManager.getConnection(url)) {
      dialect.configure(c);
      assertThat(Migrations.migrate(c, dialect, 2)).isEqualTo(2);
      try (Statement s = c.createStatement()) {
        s.execute("INSERT INTO sessions (id, source, title_rank, message_count, count_mode)"
            + " VALUES ('kept', 'claude', 0, 3, 'TOTAL')");
        for (String provider : List.of("claude", "codex")) {
          s.execute("INSERT INTO cursors (path, provider, session_id, file_key, byte_offset, line, head_hash,"
              + " updated_at) VALUES ('/x/" + provider + ".jsonl', '" + provider + "', 's', 'k', 10, 1, 'h', 'now')");
        }
      }
    }
    Path projects = Path.of(getClass().getResource("/fixtures/claude-2.1/projects").toURI());
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        assertThat(one(s, "SELECT MAX(version) FROM schema_migrations")).isEqualTo("7");
        assertThat(one(s, "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'sessions'"
            + " AND column_name IN ('permission_mode', 'recorded_cost')")).isEqualTo("2");
        assertThat(one(s, "SELECT string_agg(provider, ',') FROM cursors")).isEqualTo("codex");
        assertThat(one(s, "SELECT message_count FROM sessions WHERE id = 'kept'")).isEqualTo("3");
      }
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, projects)), ImportListener.NONE);
      assertThat(h.detail("7d3c1f20-0000-4000-8000-000000000328").session().recordedCost().totalUsd())
          .isEqualTo(0.0693);
      assertThat(h.detail("7d3c1f20-0000-4000-8000-000000000328").session().permissionMode()).isEqualTo("plan");
    }
  }

  /**
   * A version-4 database (usage candidates keyed by session and uuid, without their time) opens at
   * version 7 with every candidate timed and keyed by its message, the hour sums of a database
   * written today and its block report: the ledger is rebuilt from the messages (version 7).
   */
  @Test
  void aVersion4LedgerIsRebuiltWithEachResponsesTime(PostgresServer pg) throws Exception {
    String url = pg.createDatabase();
    Path projects = Path.of(getClass().getResource("/fixtures/claude-2.1/projects").toURI());
    List<UsageRow> blocks;
    List<UsageRow> days;
    String hours;
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      h.importFrom(List.of(new Importer.Root(Provider.CLAUDE, projects)), ImportListener.NONE);
      blocks = h.usage(UsageGrouping.BLOCK);
      days = h.usage(UsageGrouping.DAY);
    }
    assertThat(blocks).isNotEmpty();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      hours = one(s, HOUR_ROWS);
      assertThat(hours).isNotEmpty();
      s.execute("CREATE TABLE old_candidates (session_id TEXT NOT NULL, uuid TEXT NOT NULL, response_key TEXT NOT NULL,"
          + " ordinal BIGINT NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL, input_tokens BIGINT NOT NULL,"
          + " output_tokens BIGINT NOT NULL, cache_read_tokens BIGINT NOT NULL, cache_write_tokens BIGINT NOT NULL,"
          + " cache_write_1h_tokens BIGINT NOT NULL, winner INTEGER NOT NULL, PRIMARY KEY (session_id, uuid))");
      s.execute("INSERT INTO old_candidates SELECT session_id, uuid, response_key, ordinal, day, model, input_tokens,"
          + " output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, winner FROM usage_candidates");
      s.execute("DROP TABLE usage_candidates");
      s.execute("ALTER TABLE old_candidates RENAME TO usage_candidates");
      s.execute("CREATE INDEX usage_candidates_key ON usage_candidates(response_key)");
      s.execute("DELETE FROM schema_migrations WHERE version = 7");
      s.execute("DROP TABLE usage_hours");
      s.execute("DELETE FROM schema_migrations WHERE version = 6");
      s.execute("UPDATE usage_totals SET input_tokens = input_tokens + 1");
      s.execute("DELETE FROM schema_migrations WHERE version = 5");
    }
    try (TranscriptHistory h = TranscriptHistory.openUrl(url)) {
      assertThat(h.usage(UsageGrouping.BLOCK)).isEqualTo(blocks);
      assertThat(h.usage(UsageGrouping.DAY)).as("the totals are summed again, not kept").isEqualTo(days);
    }
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      assertThat(one(s, "SELECT MAX(version) FROM schema_migrations")).isEqualTo("7");
      assertThat(one(s, "SELECT COUNT(*) FROM usage_candidates WHERE at_ms IS NULL")).isEqualTo("0");
      assertThat(one(s, "SELECT COUNT(*) FROM usage_candidates c WHERE NOT EXISTS (SELECT 1 FROM messages m"
          + " WHERE m.rowid = c.message_rowid AND m.session_id = c.session_id AND m.uuid = c.uuid)"))
          .as("each candidate is keyed by its own message").isEqualTo("0");
      assertThat(one(s, HOUR_ROWS)).isEqualTo(hours);
      assertThat(Long.parseLong(one(s, "SELECT COUNT(*) FROM usage_candidates"))).isPositive();
    }
  }

  /** Every row of usage_hours in key order, as one string. */
  private static final String HOUR_ROWS = "SELECT string_agg(concat_ws('|', session_id, hour, day, model, bucket,"
      + " responses, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens,"
      + " COALESCE(first_ms::text, '-'), COALESCE(last_ms::text, '-')), E'\\n' ORDER BY session_id, hour, day, model,"
      + " bucket) FROM usage_hours";

  private static String one(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
