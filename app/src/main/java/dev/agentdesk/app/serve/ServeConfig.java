package dev.agentdesk.app.serve;

import java.net.InetAddress;
import java.net.UnknownHostException;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything {@code agentdesk serve} was asked to do.
 *
 * @param bind the address to listen on
 * @param port the TCP port, 0 for any free port
 * @param access the token every request must carry, or none ({@code --no-token}, loopback only)
 * @param database where the history lives
 * @param historyRoots the transcript folders to import and tail (every provider's; a folder that
 *     does not exist yet is picked up once it does)
 * @param importHistory whether to import and tail the folders at start
 * @param dataDir the folder for the server's own files (captures, …)
 * @param notifications webhooks, desktop bus, settings file and auto-resume ({@code --webhook}, …)
 * @param mcpAllowControl whether MCP clients at {@code /mcp} may call the tools that type, start or
 *     exec ({@code --mcp-allow-control}); read-only tools are always there
 * @param recordings the folder whose sub-folders are ACI recordings the dashboard plays ({@code
 *     --recordings}); null means {@code dataDir/recordings}
 */
public record ServeConfig(
    String bind,
    int port,
    Access access,
    Database database,
    List<Importer.Root> historyRoots,
    boolean importHistory,
    Path dataDir,
    Notifications notifications,
    boolean mcpAllowControl,
    Path recordings) {

  /** A server whose recordings are in {@code dataDir/recordings}. */
  public ServeConfig(String bind, int port, Access access, Database database, List<Importer.Root> historyRoots,
      boolean importHistory, Path dataDir, Notifications notifications, boolean mcpAllowControl) {
    this(bind, port, access, database, historyRoots, importHistory, dataDir, notifications, mcpAllowControl, null);
  }

  /** A server that imports one Claude Code and one Codex folder (tests and embedding). */
  public ServeConfig(String bind, int port, Access access, Database database, Path claudeProjects, Path codexSessions,
      boolean importHistory, Path dataDir) {
    this(bind, port, access, database, List.of(new Importer.Root(Provider.CLAUDE, claudeProjects),
        new Importer.Root(Provider.CODEX, codexSessions)), importHistory, dataDir);
  }

  public static final int DEFAULT_PORT = 7420;
  public static final String DEFAULT_BIND = "127.0.0.1";

  /**
   * Where notifications go and whether agents resume by themselves.
   *
   * @param webhooks every {@code --webhook}, shaped by {@code --webhook-format}
   * @param desktopBus the desktop's session bus address, or null (no desktop notifications)
   * @param settingsFile the notification settings file, or null to keep settings in memory (tests)
   * @param autoResumeAll {@code --auto-resume}: every session resumes after a limit unless turned off
   */
  public record Notifications(java.util.List<dev.agentdesk.notify.Webhook> webhooks, String desktopBus,
      Path settingsFile, boolean autoResumeAll) {
    public Notifications {
      webhooks = java.util.List.copyOf(webhooks);
    }

    /** No webhooks, no desktop, settings in memory, auto-resume per session only. */
    public static Notifications none() {
      return new Notifications(java.util.List.of(), null, null, false);
    }
  }

  /** Who may use the server. */
  public sealed interface Access {
    /**
     * Every request carries this token, or the dashboard cookie made from it.
     *
     * @param file where the token is kept, for the sign-in page to name; empty when it was given
     *     directly (tests, embedding)
     */
    record Token(String value, Optional<Path> file) implements Access {
      public Token {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(file, "file");
        String problem = TokenFile.problem(value);
        if (problem != null) {
          throw new IllegalArgumentException("not a usable token: " + problem);
        }
      }

      public static Token of(String value) {
        return new Token(value, Optional.empty());
      }

      @Override
      public String toString() {
        return "Token[" + file.map(Path::toString).orElse("given directly") + "]";
      }
    }

    /** No token ({@code --no-token}): every account on this machine may use the server; loopback only. */
    record None() implements Access {}
  }

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

  /** A server with {@link Notifications#none()} whose MCP endpoint offers read-only tools only. */
  public ServeConfig(String bind, int port, Access access, Database database, List<Importer.Root> historyRoots,
      boolean importHistory, Path dataDir) {
    this(bind, port, access, database, historyRoots, importHistory, dataDir, Notifications.none());
  }

  /** A server with these notifications whose MCP endpoint offers read-only tools only. */
  public ServeConfig(String bind, int port, Access access, Database database, List<Importer.Root> historyRoots,
      boolean importHistory, Path dataDir, Notifications notifications) {
    this(bind, port, access, database, historyRoots, importHistory, dataDir, notifications, false);
  }

  public ServeConfig withNotifications(Notifications n) {
    return new ServeConfig(bind, port, access, database, historyRoots, importHistory, dataDir, n, mcpAllowControl,
        recordings);
  }

  /** The same server playing the recordings in {@code dir}. */
  public ServeConfig withRecordings(Path dir) {
    return new ServeConfig(bind, port, access, database, historyRoots, importHistory, dataDir, notifications,
        mcpAllowControl, Objects.requireNonNull(dir, "dir"));
  }

  /** The same server with MCP control allowed or not. */
  public ServeConfig withMcpAllowControl(boolean allow) {
    return new ServeConfig(bind, port, access, database, historyRoots, importHistory, dataDir, notifications, allow,
        recordings);
  }

  public ServeConfig {
    Objects.requireNonNull(notifications, "notifications");
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(database, "database");
    historyRoots = List.copyOf(historyRoots);
    Objects.requireNonNull(dataDir, "dataDir");
    if (recordings == null) {
      recordings = dataDir.resolve("recordings");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (access instanceof Access.None && !isLoopback(bind)) {
      throw new IllegalArgumentException("--no-token is refused for " + bind + ": that address can be reached"
          + " from other machines, and without a token anyone who reaches it can start a shell as you");
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

  /** The token, unless the server runs without one. */
  public Optional<String> token() {
    return access instanceof Access.Token t ? Optional.of(t.value()) : Optional.empty();
  }

  public boolean loopbackOnly() {
    return isLoopback(bind);
  }
}
