package dev.agentdesk.transcripts.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;

/**
 * sqlite-jdbc's native library, extracted once into the user's cache instead of on every start.
 *
 * <p>By default the driver inflates its library from the jar into the temporary folder and compares
 * it byte by byte with the jar's copy each time a JVM first opens a database: tens of milliseconds
 * of a status line or a short report. Pointing {@code org.sqlite.lib.path}/{@code lib.name} at a copy
 * in {@code $XDG_CACHE_HOME/agentdesk/sqlite-native/VERSION/OS-ARCH/} (made once, moved into place
 * whole) skips that. Whatever goes wrong here leaves the properties unset: the driver then does
 * what it always did.
 */
final class SqliteNative {
  private static volatile boolean done;

  private SqliteNative() {}

  /** Sets the driver's library properties to the cached copy, making it first; once per JVM. */
  static void useCachedLibrary() {
    if (done) {
      return;
    }
    synchronized (SqliteNative.class) {
      if (done) {
        return;
      }
      done = true;
      if (System.getProperty("org.sqlite.lib.path") != null || System.getProperty("org.sqlite.lib.name") != null) {
        return; // the user chose a library
      }
      try {
        Path lib = cached(System.getenv());
        if (lib != null) {
          System.setProperty("org.sqlite.lib.path", lib.getParent().toString());
          System.setProperty("org.sqlite.lib.name", lib.getFileName().toString());
        }
      } catch (IOException | RuntimeException | LinkageError e) {
        // no cache (read-only home, unknown platform …): the driver extracts as usual
      }
    }
  }

  /** The cached library (made if missing), or null when the jar has none for this platform. */
  static Path cached(Map<String, String> env) throws IOException {
    String version = driverVersion();
    String folder = org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
    String name = System.mapLibraryName("sqlitejdbc");
    String resource = "/org/sqlite/native/" + folder + "/" + name;
    if (version == null || SqliteNative.class.getResource(resource) == null) {
      return null;
    }
    String xdg = env.get("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
        : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".cache");
    Path dir = cache.resolve("agentdesk").resolve("sqlite-native").resolve(version).resolve(folder.replace('/', '-'));
    Path lib = dir.resolve(name);
    if (Files.isRegularFile(lib) && Files.size(lib) > 0) {
      return lib;
    }
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, name, ".tmp");
    try (InputStream in = SqliteNative.class.getResourceAsStream(resource)) {
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      // a whole file or none: another JVM starting at the same time sees the old state or this one
      Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return lib;
  }

  /** The driver's version from its Maven metadata in the jar (the cache folder's name), or null. */
  private static String driverVersion() throws IOException {
    try (InputStream in = SqliteNative.class.getResourceAsStream("/META-INF/maven/org.xerial/sqlite-jdbc/pom.properties")) {
      if (in == null) {
        return null;
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version");
      return v == null || !v.matches("[0-9A-Za-z.+-]+") ? null : v;
    }
  }
}
