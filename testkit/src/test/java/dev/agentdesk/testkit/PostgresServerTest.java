package dev.agentdesk.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class PostgresServerTest {
  private static long scalar(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<Long> postmasters(Path dir) throws Exception {
    // A postmaster of that directory: its command line names the directory.
    return ProcessHandle.allProcesses().filter(h -> h.info().arguments().map(a -> String.join(" ", a))
        .orElse("").contains(dir.toString() + "/data")).map(ProcessHandle::pid).toList();
  }

  @Test
  void eachDatabaseIsFreshAndWritableWithThePasswordInTheUrl(PostgresServer pg) throws SQLException {
    String a = pg.createDatabase();
    String b = pg.createDatabase();
    assertThat(a).isNotEqualTo(b).contains("password=" + PostgresServer.PASSWORD);
    try (Connection c = DriverManager.getConnection(a); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x BIGINT)");
      s.execute("INSERT INTO t VALUES (41), (1)");
    }
    assertThat(scalar(a, "SELECT SUM(x) FROM t")).isEqualTo(42);
    assertThat(scalar(b, "SELECT COUNT(*) FROM pg_tables WHERE tablename = 't'")).isZero();
    // server_version_num: a real server answers
    assertThat(scalar(a, "SELECT current_setting('server_version_num')::int")).isGreaterThan(100000);
  }

  @Test
  void eachSchemaIsFreshAndSelectedByItsUrl(PostgresServer pg) throws SQLException {
    String a = pg.createSchema();
    String b = pg.createSchema();
    try (Connection c = DriverManager.getConnection(a); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x BIGINT)");
    }
    assertThat(scalar(a, "SELECT COUNT(*) FROM t")).isZero();
    assertThatThrownBy(() -> scalar(b, "SELECT COUNT(*) FROM t")).hasMessageContaining("does not exist");
  }

  @Test
  void theSameServerServesTheWholeClass(PostgresServer first, PostgresServer second) {
    assertThat(first).isSameAs(second);
    assertThat(first.isAlive()).isTrue();
  }

  @Test
  void aWrongPasswordIsRefused(PostgresServer pg) {
    String url = pg.createDatabase().replace(PostgresServer.PASSWORD, "wrong");
    assertThatThrownBy(() -> DriverManager.getConnection(url).close()).isInstanceOf(SQLException.class)
        .hasMessageContaining("password authentication failed");
  }

  @Test
  void closeStopsThePostmasterAndDeletesTheCluster() throws Exception {
    PostgresServer pg = PostgresServer.start();
    Path dir = pg.directory();
    assertThat(dir).isDirectory();
    assertThat(postmasters(dir)).isNotEmpty();
    pg.close();
    assertThat(dir).doesNotExist();
    assertThat(postmasters(dir)).isEmpty();
    assertThat(pg.isAlive()).isFalse();
  }

  /** A JVM that dies without closing its server (SIGKILL) leaves no postmaster and no directory behind. */
  @Test
  void aKilledJvmLeavesNothingRunning() throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
        PostgresServerChild.class.getName()).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line).as("the child's first line").startsWith("started ");
      Path dir = Path.of(line.substring("started ".length()));
      assertThat(postmasters(dir)).isNotEmpty();
      child.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while ((Files.exists(dir) || !postmasters(dir).isEmpty()) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(postmasters(dir)).isEmpty();
      assertThat(dir).doesNotExist();
    } finally {
      child.destroyForcibly();
    }
  }
}
