package dev.agentdesk.transcripts.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * An SQLite database that only its owner can read. SQLite creates a new database file with the
 * process's umask (0644 as a rule) and its {@code -wal}, {@code -shm} and {@code -journal} files
 * with the database file's own mode; so the file is made here first, 0600, in folders made 0700,
 * and an older file (and its companions) left readable by group or others is tightened to 0600.
 * Transcripts hold code, prompts and secrets pasted into them: no other account may read them,
 * whichever command opens the database first.
 */
public final class SqliteFiles {
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
  private static final String[] COMPANIONS = {"", "-wal", "-shm", "-journal"};

  private SqliteFiles() {}

  /**
   * Makes {@code file}'s missing folders (0700) and the file itself (0600, empty: SQLite takes an
   * empty file as a new database), and takes group and others' rights off an existing file and
   * its companions. Folders that already exist are left as they are: the caller knows which of
   * them is its own (the data folder) and which is the user's.
   *
   * @throws UncheckedIOException naming the file when a folder or the file cannot be made
   */
  public static void prepare(Path file) {
    Path abs = file.toAbsolutePath();
    try {
      Path parent = abs.getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        try {
          Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(DIR));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot create the folder " + parent + " for the database ("
              + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
      }
      if (!Files.exists(abs)) {
        try {
          Files.createFile(abs, PosixFilePermissions.asFileAttribute(FILE));
        } catch (FileAlreadyExistsException raced) {
          // another process made it first; tightened below like any older file
        }
      }
      for (String suffix : COMPANIONS) {
        tighten(abs.resolveSibling(abs.getFileName() + suffix));
      }
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: nothing to set
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the database file " + abs + " private ("
          + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
    }
  }

  private static void tighten(Path f) throws IOException {
    if (!Files.isRegularFile(f)) {
      return;
    }
    Set<PosixFilePermission> now = Files.getPosixFilePermissions(f);
    Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
    open.addAll(now);
    open.retainAll(GROUP_OR_OTHERS);
    if (!open.isEmpty()) {
      Set<PosixFilePermission> kept = EnumSet.copyOf(now);
      kept.removeAll(GROUP_OR_OTHERS);
      Files.setPosixFilePermissions(f, kept.isEmpty() ? FILE : kept);
    }
  }
}
