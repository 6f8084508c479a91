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
          + " jdbc:postgresql://HOST/DB?user=U&password=P")
  String url;

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
      if (o.db != null && o.url != null) {
        throw new UserError("--db and --db-url are mutually exclusive: give a SQLite file or a JDBC URL");
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
