package dev.agentdesk.app.mcpinstall;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/** Writing an agent's configuration file: whole, through a temp file beside it, keeping its mode. */
final class ConfigFiles {
  private ConfigFiles() {}

  static void replace(Path link, String text) throws IOException {
    // A dotfile kept elsewhere behind a symlink is written where it lives; the link stays.
    Path file = Files.exists(link) ? link.toRealPath() : link.toAbsolutePath();
    Path dir = file.getParent();
    Files.createDirectories(dir);
    Set<PosixFilePermission> mode = Files.exists(file) ? Files.getPosixFilePermissions(file)
        : java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
    Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(tmp, mode);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
