package dev.agentdesk.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TempSqliteExtension.class)
class TempSqliteTest {
  @Test
  void givesAWritableFileDatabase(TempSqlite db) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("create table t(x integer)");
      s.execute("insert into t values (41), (1)");
      try (ResultSet rs = s.executeQuery("select sum(x) from t")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
    }
    assertThat(db.file()).exists();
  }

  @Test
  void closeRemovesTheDatabaseAndItsDirectory() throws Exception {
    TempSqlite db = TempSqlite.create();
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("pragma journal_mode=wal");
      s.execute("create table t(x)");
    }
    db.close();
    assertThat(Files.exists(db.file().getParent())).isFalse();
  }

  @Test
  void eachParameterIsItsOwnDatabase(TempSqlite a, TempSqlite b) {
    assertThat(a.file()).isNotEqualTo(b.file());
  }
}
