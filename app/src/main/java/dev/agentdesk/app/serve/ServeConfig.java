package dev.agentdesk.app.serve;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything {@code agentdesk serve} was asked to do.
 *
 * @param bind the address to listen on; anything but loopback requires {@code token}
 * @param port the TCP port, 0 for any free port
 * @param token the API token; empty means none is required (loopback only)
 * @param database where the history lives
 * @param claudeProjects the Claude Code projects folder to import and tail
 * @param codexSessions the Codex sessions folder to import and tail
 * @param importHistory whether to import and tail the two folders at start
 * @param dataDir the folder for the server's own files (captures, …)
 */
public record ServeConfig(
    String bind,
    int port,
    Optional<String> token,
    Database database,
    Path claudeProjects,
    Path codexSessions,
    boolean importHistory,
    Path dataDir) {

  public static final int DEFAULT_PORT = 7420;
  public static final String DEFAULT_BIND = "127.0.0.1";

  /** The history database: an SQLite file, or a JDBC URL (PostgreSQL for a team). */
  public sealed interface Database {
    /** An embedded SQLite file. */
    record SqliteFile(Path path) implements Database {
      public SqliteFile {
        Objects.requireNonNull(path, "path");
      }
    }

    /** Any JDBC URL the transcripts module accepts. */
    record JdbcUrl(String url) implements Database {
      public JdbcUrl {
        if (url == null || !url.startsWith("jdbc:")) {
          throw new IllegalArgumentException("a database URL starts with 'jdbc:', got '" + url + "'");
        }
      }
    }

    /** Shown to people: a path, or the URL without its password. */
    default String describe() {
      if (this instanceof SqliteFile f) {
        return f.path().toString();
      }
      return ((JdbcUrl) this).url().replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
  }

  public ServeConfig {
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(claudeProjects, "claudeProjects");
    Objects.requireNonNull(codexSessions, "codexSessions");
    Objects.requireNonNull(dataDir, "dataDir");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    token.ifPresent(t -> {
      if (t.length() < 16) {
        throw new IllegalArgumentException("a token must have at least 16 characters");
      }
    });
    if (!isLoopback(bind) && token.isEmpty()) {
      throw new IllegalArgumentException("binding " + bind + " (not loopback) requires a token");
    }
  }

  /** Whether {@code bind} names only this machine (127.0.0.0/8, ::1 or localhost). */
  public static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public boolean loopbackOnly() {
    return isLoopback(bind);
  }
}
