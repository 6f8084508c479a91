package dev.agentdesk.transcripts.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * sqlite-jdbc's native library, extracted once into the user's cache instead of on every start.
 *
 * <p>By default the driver inflates its library from the jar into the temporary folder and compares
 * it byte by byte with the jar's copy each time a JVM first opens a database: tens of milliseconds
 * of a status line or a short report. Pointing {@code org.sqlite.lib.path}/{@code lib.name} at a copy
 * in {@code $XDG_CACHE_HOME/agentdesk/sqlite-native/VERSION/OS-ARCH/} (made once, moved into place
 * whole) skips that. Whatever goes wrong here leaves the properties unset: the driver then does
 * what it always did.
 *
 * <p>The driver's name for this platform's folder ({@code Linux/x86_64}, {@code Linux-Musl/…}) is
 * remembered beside the copies too: finding it runs {@code uname -o} (a process start, for Android's
 * Termux) on every JVM.
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
        Path lib = cached(System.getenv(), org.sqlite.util.OSInfo::getNativeLibFolderPathForCurrentOS);
        if (lib != null) {
          System.setProperty("org.sqlite.lib.path", lib.getParent().toString());
          System.setProperty("org.sqlite.lib.name", lib.getFileName().toString());
        }
      } catch (IOException | RuntimeException | LinkageError e) {
        // no cache (read-only home, unknown platform …): the driver extracts as usual
      }
    }
  }

  /**
   * The cached library (made if missing), or null when the jar has none for this platform;
   * {@code detect} names the platform's folder the first time.
   */
  static Path cached(Map<String, String> env, Supplier<String> detect) throws IOException {
    String version = driverVersion();
    if (version == null) {
      return null;
    }
    String xdg = env.get("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
        : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".cache");
    Path versionDir = cache.resolve("agentdesk").resolve("sqlite-native").resolve(version);
    String folder = platform(versionDir, detect);
    String name = System.mapLibraryName("sqlitejdbc");
    String resource = "/org/sqlite/native/" + folder + "/" + name;
    if (SqliteNative.class.getResource(resource) == null) {
      return null;
    }
    Path dir = versionDir.resolve(folder.replace('/', '-'));
    Path lib = dir.resolve(name);
    if (Files.isRegularFile(lib) && Files.size(lib) > 0) {
      return lib;
    }
    Files.createDirectories(dir);
    writeWhole(dir, lib, out -> {
      try (InputStream in = SqliteNative.class.getResourceAsStream(resource)) {
        in.transferTo(out);
      }
    });
    return lib;
  }

  /** The driver's folder name for this platform, remembered per OS name and architecture. */
  private static String platform(Path versionDir, Supplier<String> detect) throws IOException {
    Path remembered = versionDir.resolve("platform-" + (System.getProperty("os.name") + "-"
        + System.getProperty("os.arch")).replaceAll("[^A-Za-z0-9._-]", "_"));
    if (Files.isRegularFile(remembered)) {
      String folder = Files.readString(remembered).strip();
      if (FOLDER.matcher(folder).matches()) {
        return folder;
      }
    }
    String folder = detect.get();
    if (folder == null || !FOLDER.matcher(folder).matches()) {
      throw new IOException("unexpected platform folder " + folder);
    }
    Files.createDirectories(versionDir);
    writeWhole(versionDir, remembered, out -> out.write(folder.getBytes(StandardCharsets.UTF_8)));
    return folder;
  }

  /** A folder name of the driver's jar ("Linux/x86_64"): no dots, so never a path out of the cache. */
  private static final Pattern FOLDER = Pattern.compile("[A-Za-z0-9_-]+/[A-Za-z0-9_-]+");

  private interface Writer {
    void write(OutputStream out) throws IOException;
  }

  /** Writes {@code target} whole or not at all: another JVM starting at the same time sees the old state or this one. */
  private static void writeWhole(Path dir, Path target, Writer writer) throws IOException {
    Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        writer.write(out);
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
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
