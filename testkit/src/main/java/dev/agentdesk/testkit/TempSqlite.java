package dev.agentdesk.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A fresh SQLite database file in its own temporary directory, deleted (with its WAL and SHM
 * files) on close. Use with try-with-resources or through {@link TempSqliteExtension}.
 */
public final class TempSqlite implements AutoCloseable {
  private final Path dir;
  private final Path file;

  private TempSqlite(Path dir) {
    this.dir = dir;
    this.file = dir.resolve("test.db");
  }

  public static TempSqlite create() {
    try {
      return new TempSqlite(Files.createTempDirectory("agentdesk-sqlite"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The database file (it does not exist until something opens it). */
  public Path file() {
    return file;
  }

  public String jdbcUrl() {
    return "jdbc:sqlite:" + file;
  }

  /** Opens a new connection; the caller closes it. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  @Override
  public void close() {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
