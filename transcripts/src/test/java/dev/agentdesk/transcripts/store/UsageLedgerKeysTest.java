package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.TempSqlite;
import dev.agentdesk.testkit.TempSqliteExtension;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.Visibility;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Candidates are found by a hash of their response key: a row of another key with the same hash is not theirs. */
@ExtendWith(TempSqliteExtension.class)
class UsageLedgerKeysTest {

  @Test
  void aCandidateOfAnotherKeyWithTheSameHashIsNotTheResponsesWinner(TempSqlite db) throws SQLException {
    TranscriptStore.openSqlite(db.file()).close();
    SqliteDialect dialect = new SqliteDialect();
    try (Connection c = db.connect()) {
      String key = UsageLedger.responseKey("s", "u1", "resp1");
      try (Statement s = c.createStatement()) {
        // a stored winner of 'r:other' whose hash equals that of 'r:resp1', with a far larger output:
        // taken for the same response, it would beat the new candidate and keep it out of the totals
        s.execute("INSERT INTO usage_candidates (message_rowid, session_id, uuid, response_key, key_hash, ordinal, day,"
            + " model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, winner,"
            + " at_ms) VALUES (999, 'x', 'u0', 'r:other', " + UsageLedger.keyHash(key) + ", 0, '2026-03-01', 'm', 1,"
            + " 1000000, 0, 0, 0, 1, NULL)");
      }
      c.setAutoCommit(false);
      UsageLedger ledger = new UsageLedger(c, dialect);
      ledger.message(new MessageRecord("s", "u1", null, 1, "2026-03-01T10:00:00Z", "assistant", "hi", "text", false,
          Visibility.VISIBLE, "m", false, null, "resp1", new TokenUsage(5, 10, 0, 0)), 1, false);
      ledger.finish();
      c.commit();
      assertThat(one(c, "SELECT winner FROM usage_candidates WHERE message_rowid = 1")).isEqualTo(1);
      assertThat(one(c, "SELECT winner FROM usage_candidates WHERE message_rowid = 999")).isEqualTo(1);
      assertThat(one(c, "SELECT output_tokens FROM usage_totals WHERE session_id = 's'")).isEqualTo(10);
      assertThat(one(c, "SELECT key_hash = " + UsageLedger.keyHash(key) + " FROM usage_candidates"
          + " WHERE message_rowid = 1")).isEqualTo(1);
    }
  }

  @Test
  void theKeyHashIsFnv1aOverTheKeysCharacters() {
    // fixed: the hash is stored, so a change would lose every stored candidate's response
    assertThat(UsageLedger.keyHash("")).isEqualTo(0xcbf29ce484222325L);
    assertThat(UsageLedger.keyHash("a")).isEqualTo(0xaf63dc4c8601ec8cL);
    assertThat(UsageLedger.keyHash("r:msg_01")).isNotEqualTo(UsageLedger.keyHash("r:msg_02"));
  }

  private static long one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getLong(1);
    }
  }
}
