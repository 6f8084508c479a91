package dev.agentdesk.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A private, throwaway PostgreSQL cluster: {@code initdb} into a fresh directory, a postmaster on a
 * free TCP port of 127.0.0.1 (its unix socket in that directory, not in the shared
 * {@code /var/run/postgresql}), password authentication, and everything stopped and deleted on
 * {@link #close} — or on JVM exit, or, should the JVM be killed, by a watchdog shell that stops
 * the postmaster once the JVM's {@code /proc} entry is gone.
 *
 * <p>{@code initdb} and {@code postgres} refuse to run as root. As root they run as the
 * {@code postgres} system user ({@code runuser}) in a mode-700 directory under {@code /tmp} that
 * this class creates and hands to that user (a JUnit {@code @TempDir} of root's is not traversable
 * by it). Otherwise they run as the current user.
 *
 * <p>The cluster runs with {@code fsync=off}: it only ever holds test data.
 */
public final class PostgresServer implements AutoCloseable {
  /** The superuser every database is created for. */
  public static final String USER = "agentdesk";
  /** Its password (the cluster listens on loopback only and is deleted after the tests). */
  public static final String PASSWORD = "agentdesk-test-password";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final Path dir;
  private final int port;
  private final Process wrapper;
  private final Thread shutdownHook;
  private volatile boolean closed;
  private Connection admin;

  private PostgresServer(Path dir, int port, Process wrapper) {
    this.dir = dir;
    this.port = port;
    this.wrapper = wrapper;
    this.shutdownHook = new Thread(this::stop, "postgres-server-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * The directory of the server binaries: {@code $AGENTDESK_PG_BIN} if set, else the newest
   * {@code /usr/lib/postgresql/<version>/bin} that has {@code initdb} and {@code postgres}.
   */
  public static Optional<Path> binaries() {
    String env = System.getenv("AGENTDESK_PG_BIN");
    if (env != null && !env.isBlank()) {
      return Optional.of(Path.of(env)).filter(PostgresServer::hasServer);
    }
    Path base = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(base)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(base)) {
      return versions.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
          .max(Comparator.comparingDouble(v -> Double.parseDouble(v.getFileName().toString())))
          .map(v -> v.resolve("bin")).filter(PostgresServer::hasServer);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean hasServer(Path bin) {
    return Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("postgres"));
  }

  /** Initializes and starts a new cluster; a few seconds. */
  public static PostgresServer start() throws IOException, InterruptedException {
    Path bin = binaries().orElseThrow(() -> new IOException("PostgreSQL server binaries not found under"
        + " /usr/lib/postgresql/*/bin (set AGENTDESK_PG_BIN or run scripts/setup-system, which installs package"
        + " postgresql)"));
    boolean root = isRoot();
    // Under /tmp, not java.io.tmpdir: the postgres user must be able to reach it when we are root.
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "agentdesk-pg",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try {
      if (root) {
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
        Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class)
            .setGroup(users.lookupPrincipalByGroupName("postgres"));
      }
      Path pwfile = dir.resolve("pwfile");
      run(root, dir, List.of("sh", "-c", "umask 077 && printf '%s\\n' \"$1\" > \"$2\"", "sh", PASSWORD,
          pwfile.toString()));
      run(root, dir, List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
          "--pwfile=" + pwfile, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
          "--no-instructions"));
      IOException last = null;
      for (int attempt = 0; attempt < 3; attempt++) {
        int port = freePort();
        Process wrapper = launch(root, bin, dir, port);
        try {
          awaitReady(wrapper, port, dir);
          return new PostgresServer(dir, port, wrapper);
        } catch (IOException e) {
          // Most likely someone took the port between our probe and the bind; try another.
          last = e;
          stopPostmaster(dir, wrapper);
        }
      }
      throw last;
    } catch (IOException | InterruptedException | RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  /**
   * Runs the postmaster under a small shell that stops it (immediate shutdown) and removes the
   * directory if this JVM disappears without closing the server.
   */
  private static Process launch(boolean root, Path bin, Path dir, int port) throws IOException {
    long jvm = ProcessHandle.current().pid();
    String script = """
        "$1" -D "$2/data" -p "$3" -k "$2" -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off \
          -c full_page_writes=off -c max_connections=40 -c shared_buffers=32MB -c log_min_messages=warning \
          > "$2/postgres.log" 2>&1 &
        pg=$!
        while kill -0 "$pg" 2>/dev/null; do
          if [ ! -d "/proc/$4" ]; then
            kill -QUIT "$pg"; wait "$pg"; rm -rf "$2"; exit 0
          fi
          sleep 1
        done
        """;
    List<String> cmd = command(root, List.of("sh", "-c", script, "postgres-watchdog",
        bin.resolve("postgres").toString(), dir.toString(), String.valueOf(port), String.valueOf(jvm)));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  private static void awaitReady(Process wrapper, int port, Path dir) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      if (!wrapper.isAlive()) {
        throw new IOException("postgres exited before it was ready: " + log(dir));
      }
      try (Connection c = DriverManager.getConnection(url(port, "postgres"), USER, PASSWORD)) {
        return;
      } catch (SQLException e) {
        last = e;
      }
      Thread.sleep(50);
    }
    throw new IOException("postgres was not ready within " + START_TIMEOUT.toSeconds() + " s (" + last + "): "
        + log(dir));
  }

  private static String log(Path dir) {
    try {
      return Files.readString(dir.resolve("postgres.log"), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static boolean isRoot() throws IOException {
    return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static List<String> command(boolean root, List<String> cmd) {
    if (!root) {
      return cmd;
    }
    List<String> out = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    out.addAll(cmd);
    return out;
  }

  private static void run(boolean root, Path dir, List<String> cmd) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command(root, cmd));
    pb.directory(dir.toFile());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8).strip());
    }
  }

  private static String url(int port, String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** The cluster's directory (data, socket, log); gone after {@link #close}. */
  public Path directory() {
    return dir;
  }

  public int port() {
    return port;
  }

  /** A JDBC URL of {@code database} that carries the user and password, as a user would write it. */
  public String jdbcUrl(String database) {
    return url(port, database) + "?user=" + USER + "&password=" + PASSWORD;
  }

  /** Creates a new, empty database and returns its JDBC URL (with credentials). */
  public synchronized String createDatabase() {
    String name = "db" + DATABASES.incrementAndGet();
    try (Statement s = admin().createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
    }
    return jdbcUrl(name);
  }

  /**
   * Creates a new, empty schema in one shared database and returns a JDBC URL whose {@code
   * currentSchema} selects it: a few milliseconds instead of the ~150 ms of a database, for tests
   * that need many fresh histories.
   */
  public synchronized String createSchema() {
    String name = "s" + DATABASES.incrementAndGet();
    try (Statement s = admin().createStatement()) {
      s.execute("CREATE SCHEMA " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create schema " + name + ": " + e.getMessage(), e);
    }
    return jdbcUrl("postgres") + "&currentSchema=" + name;
  }

  /** One connection for creating databases and schemas (a new one per call costs ~10 ms of SCRAM). */
  private Connection admin() throws SQLException {
    if (admin == null || admin.isClosed()) {
      admin = DriverManager.getConnection(url(port, "postgres"), USER, PASSWORD);
    }
    return admin;
  }

  /** Opens a new connection to {@code url} (one this server returned); the caller closes it. */
  public static Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** Whether the postmaster still runs. */
  public boolean isAlive() {
    return wrapper.isAlive();
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook does the same
    }
  }

  private synchronized void stop() {
    if (closed) {
      return;
    }
    closed = true;
    if (admin != null) {
      try {
        admin.close();
      } catch (SQLException e) {
        // the server goes away next anyway
      }
    }
    stopPostmaster(dir, wrapper);
    deleteTree(dir);
  }

  /** Immediate shutdown (SIGQUIT): nothing in this cluster needs to survive. */
  private static void stopPostmaster(Path dir, Process wrapper) {
    try {
      Optional<Long> pid = postmasterPid(dir, wrapper);
      if (pid.isPresent()) {
        new ProcessBuilder("kill", "-QUIT", String.valueOf(pid.get())).start().waitFor(10, TimeUnit.SECONDS);
        Optional<ProcessHandle> handle = ProcessHandle.of(pid.get());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (handle.map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
      }
      // The watchdog ends by itself once the postmaster is gone (within a second).
      if (!wrapper.waitFor(5, TimeUnit.SECONDS)) {
        wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
        wrapper.destroyForcibly();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      wrapper.descendants().forEach(ProcessHandle::destroyForcibly);
      wrapper.destroyForcibly();
    }
  }

  private static Optional<Long> postmasterPid(Path dir, Process wrapper) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("data/postmaster.pid"));
      if (!lines.isEmpty()) {
        return Optional.of(Long.parseLong(lines.get(0).strip()));
      }
    } catch (IOException | NumberFormatException e) {
      // not started (or already gone): fall back to the watchdog's child
    }
    return wrapper.descendants().filter(h -> h.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
        .map(ProcessHandle::pid).findFirst();
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: a file vanished while walking (the postmaster removing its socket)
    }
  }

  @Override
  public String toString() {
    return "PostgresServer[127.0.0.1:" + port + ", " + dir + "]";
  }
}
