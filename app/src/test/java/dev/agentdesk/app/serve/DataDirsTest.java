package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data folder keeps other accounts out of the history database SQLite creates 0644. */
class DataDirsTest {
  @Test
  void aMissingFolderIsCreatedPrivateAndAnOpenOneIsTightenedWithANote(@TempDir Path dir) throws Exception {
    Path fresh = dir.resolve("a/agentdesk");
    assertThat(DataDirs.makePrivate(fresh)).isEmpty();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rwx------");

    Path old = Files.createDirectories(dir.resolve("old"));
    Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(DataDirs.makePrivate(old)).hasValueSatisfying(n -> assertThat(n).contains(old.toString(), "rwxr-xr-x"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(old))).isEqualTo("rwx------");
    assertThat(DataDirs.makePrivate(old)).as("already private: nothing to say").isEmpty();
  }
}
