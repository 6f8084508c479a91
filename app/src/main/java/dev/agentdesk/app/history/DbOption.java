package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.app.serve.DataDirs;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --db FILE} or {@code --db-url JDBC_URL}: the history database; accepted on {@code history}
 * and on every subcommand, before or after arguments. A subcommand's own choice wins over the
 * parent's.
 */
public final class DbOption {
  @Option(names = "--db", paramLabel = "FILE",
      description = "History database (SQLite). Default: $XDG_DATA_HOME/agentdesk/history.db")
  Path db;

  @Option(names = "--db-url", paramLabel = "JDBC_URL",
      description = "History database as a JDBC URL instead of a file, e.g. a team's PostgreSQL:"
          + " jdbc:postgresql://HOST/DB?user=U. Its password comes from PGPASSWORD or ~/.pgpass (PGPASSFILE),"
          + " as for psql; a password in a URL on the command line is shown to every account by ps.")
  String url;

  @Option(names = "--db-url-file", paramLabel = "FILE",
      description = "Read the JDBC URL from FILE (its first line; keep the file owner-only when it holds a password).")
  Path urlFile;

  /** Where the history lives: a SQLite file or a JDBC URL (exactly one is set). */
  public record Target(Path file, String url) {}

  /** This option, else the XDG default file (for a command with no parent that has the option). */
  public Target resolve() {
    return resolve(this, null);
  }

  /** This option, else the parent's, else the XDG default file. */
  static Target resolve(DbOption own, DbOption parent) {
    for (DbOption o : new DbOption[] {own, parent}) {
      if (o == null) {
        continue;
      }
      if ((o.db != null ? 1 : 0) + (o.url != null ? 1 : 0) + (o.urlFile != null ? 1 : 0) > 1) {
        throw new UserError("--db, --db-url and --db-url-file are mutually exclusive: give a SQLite file or one JDBC URL");
      }
      if (o.urlFile != null) {
        return new Target(null, readUrlFile(o.urlFile));
      }
      if (o.url != null) {
        if (!o.url.startsWith("jdbc:")) {
          throw new UserError("a database URL starts with 'jdbc:' (e.g. jdbc:postgresql://host/db?user=…), not '"
              + o.url.replaceAll("password=[^&]*", "password=***") + "'; for a SQLite file use --db FILE");
        }
        return new Target(null, o.url);
      }
      if (o.db != null) {
        return new Target(o.db, null);
      }
    }
    return defaultTarget(System.getenv());
  }

  /** The JDBC URL kept in {@code file}: its first non-blank line, trimmed. */
  public static String readUrlFile(Path file) {
    try {
      for (String line : java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          String url = line.strip();
          if (!url.startsWith("jdbc:")) {
            throw new UserError("the first line of " + file + " is not a JDBC URL (it must start with 'jdbc:')");
          }
          return url;
        }
      }
      throw new UserError(file + " is empty: put the JDBC URL on its first line");
    } catch (java.io.IOException e) {
      throw new UserError("cannot read the database URL from " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The data folder's history.db, by the one resolver every command uses ($XDG_DATA_HOME, else
   * $HOME/.local/share, as {@link DataDirs} has it). The data folder is made private (0700) or
   * tightened here, so whichever command runs first, nobody else can enter it.
   */
  static Target defaultTarget(java.util.Map<String, String> env) {
    Path home = dev.agentdesk.transcripts.HistoryFolders.home(env);
    DataDirs.makePrivate(DataDirs.dataDir(env, home));
    return new Target(DataDirs.defaultDatabase(env, home), null);
  }
}
