package dev.agentdesk.app.history;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --db F}: the history database; accepted on {@code history} and on every subcommand, before or after arguments. */
public final class DbOption {
  @Option(names = "--db", paramLabel = "FILE",
      description = "History database (SQLite). Default: $XDG_DATA_HOME/agentdesk/history.db")
  Path db;

  /** The database file: this option, else the parent's, else the XDG default. */
  static Path resolve(DbOption own, DbOption parent) {
    if (own != null && own.db != null) {
      return own.db;
    }
    if (parent != null && parent.db != null) {
      return parent.db;
    }
    String xdg = System.getenv("XDG_DATA_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local",
        "share");
    return base.resolve("agentdesk").resolve("history.db");
  }
}
