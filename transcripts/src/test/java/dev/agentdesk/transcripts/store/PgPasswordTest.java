package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.transcripts.TranscriptException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL URL without its password, as a user gives it to keep the password off the command
 * line, opens a real server with scram-sha-256 authentication from PGPASSWORD or a password file.
 */
@ExtendWith(PostgresExtension.class)
class PgPasswordTest {
  @TempDir
  Path dir;

  private String bareUrl(PostgresServer pg, String db) {
    return "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + db + "?user=" + PostgresServer.USER;
  }

  /** The database name of a URL {@code jdbc:postgresql://h:p/NAME?…}. */
  private static String name(String url) {
    String path = url.substring(url.lastIndexOf('/') + 1);
    return path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
  }

  private Path passFile(String content, String mode) throws IOException {
    Path f = Files.writeString(dir.resolve("pgpass"), content);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
    return f;
  }

  @Test
  void withoutAPasswordTheServerRefusesAndTheMessageSaysWhereOneCanBe(PostgresServer pg) {
    String db = name(pg.createDatabase());
    assertThatThrownBy(() -> TranscriptStore.open(bareUrl(pg, db), Map.of("HOME", dir.toString())))
        .isInstanceOf(TranscriptException.class).hasMessageContaining("password");
  }

  @Test
  void pgPasswordOpensIt(PostgresServer pg) {
    String db = name(pg.createDatabase());
    try (TranscriptStore s = TranscriptStore.open(bareUrl(pg, db), Map.of("PGPASSWORD", PostgresServer.PASSWORD))) {
      assertThat(s).isNotNull();
    }
  }

  @Test
  void theMatchingLineOfAPrivatePasswordFileOpensIt(PostgresServer pg) throws IOException {
    String db = name(pg.createDatabase());
    Path f = passFile("# comment\n127.0.0.1:" + pg.port() + ":other:" + PostgresServer.USER + ":wrong\n"
        + "127.0.0.1:*:" + db + ":" + PostgresServer.USER + ":" + PostgresServer.PASSWORD + "\n", "rw-------");
    try (TranscriptStore s = TranscriptStore.open(bareUrl(pg, db), Map.of("PGPASSFILE", f.toString()))) {
      assertThat(s).isNotNull();
    }
    // ~/.pgpass when PGPASSFILE is not set
    Files.move(f, dir.resolve(".pgpass"));
    try (TranscriptStore s = TranscriptStore.open(bareUrl(pg, db), Map.of("HOME", dir.toString()))) {
      assertThat(s).isNotNull();
    }
  }

  @Test
  void aPasswordFileOthersCanReadIsNotUsedAsLibpqDoes(PostgresServer pg) throws IOException {
    String db = name(pg.createDatabase());
    Path f = passFile("*:*:*:*:" + PostgresServer.PASSWORD + "\n", "rw-r--r--");
    assertThatThrownBy(() -> TranscriptStore.open(bareUrl(pg, db), Map.of("PGPASSFILE", f.toString())))
        .isInstanceOf(TranscriptException.class);
  }

  @Test
  void aPasswordInTheUrlWinsAndNoMessageShowsAFoundPassword(PostgresServer pg) {
    String db = name(pg.createDatabase());
    String secret = "found-in-the-environment-secret";
    assertThatThrownBy(() -> TranscriptStore.open(bareUrl(pg, db), Map.of("PGPASSWORD", secret)))
        .isInstanceOf(TranscriptException.class).message().doesNotContain(secret);
    try (TranscriptStore s = TranscriptStore.open(pg.jdbcUrl(db), Map.of("PGPASSWORD", secret))) {
      assertThat(s).isNotNull();
    }
  }

  @Test
  void passwordFileLinesFollowLibpqsEscapes() {
    assertThat(PgPassword.fields("h\\:x:5432:d:u:p:w\\\\d")).isEqualTo(List.of("h:x", "5432", "d", "u", "p:w\\d"));
    assertThat(PgPassword.complete("jdbc:sqlite:/tmp/x.db", Map.of("PGPASSWORD", "p"))).isEqualTo("jdbc:sqlite:/tmp/x.db");
    assertThat(PgPassword.complete("jdbc:postgresql://h/d", Map.of("PGPASSWORD", "p&q")))
        .isEqualTo("jdbc:postgresql://h/d?password=p%26q");
    assertThat(PgPassword.complete("jdbc:postgresql://h/d?user=u", Map.of("PGPASSWORD", "p")))
        .isEqualTo("jdbc:postgresql://h/d?user=u&password=p");
  }
}
