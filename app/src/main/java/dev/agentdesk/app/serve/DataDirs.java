package dev.agentdesk.app.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where agentdesk keeps its files, following the XDG base directory rules: {@code
 * $XDG_DATA_HOME/agentdesk}, else {@code ~/.local/share/agentdesk}.
 */
public final class DataDirs {
  private DataDirs() {}

  /** The data folder for the given environment and home directory. */
  public static Path dataDir(Map<String, String> env, Path home) {
    String xdg = env.get("XDG_DATA_HOME");
    // The spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg).resolve("agentdesk");
    }
    return home.resolve(".local").resolve("share").resolve("agentdesk");
  }

  /** The default history database inside {@link #dataDir}. */
  public static Path defaultDatabase(Map<String, String> env, Path home) {
    return dataDir(env, home).resolve("history.db");
  }

  /** $HOME when set (as shells and the agents themselves use it), else the JVM's user.home. */
  public static Path home() {
    return dev.agentdesk.transcripts.HistoryFolders.home(System.getenv());
  }

  /**
   * Makes {@code dir} (the data folder: the history database, agents.db, worktrees, the token)
   * readable by its owner only: created 0700 when missing; an existing folder that group or others
   * may enter is tightened to 0700, since SQLite creates its files 0644 and the folder is what keeps
   * other accounts out of them. Returns a line for the banner when it changed an existing folder.
   */
  public static Optional<String> makePrivate(Path dir) {
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
    try {
      if (!Files.exists(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(ownerOnly));
        return Optional.empty();
      }
      Set<PosixFilePermission> now = Files.getPosixFilePermissions(dir);
      Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
      open.addAll(now);
      open.retainAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE));
      if (open.isEmpty()) {
        return Optional.empty();
      }
      Files.setPosixFilePermissions(dir, ownerOnly);
      return Optional.of("made " + dir + " private (was " + PosixFilePermissions.toString(now)
          + ", now rwx------): it holds your transcripts' database and the server's token");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the data folder " + dir + " private: " + e.getMessage(), e);
    } catch (UnsupportedOperationException e) {
      return Optional.empty(); // not a POSIX file system: nothing to tighten
    }
  }
}
