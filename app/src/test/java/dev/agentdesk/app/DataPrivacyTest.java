package dev.agentdesk.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No other account reads the history, whichever command makes the data folder first: each
 * command runs as a child process with only {@code HOME} set (as a shell and MCP clients start
 * it), and the account {@code nobody} ({@code setpriv}) then tries to read what it wrote.
 */
class DataPrivacyTest {
  private static final String SESSION = "5e5e0000-0000-4000-8000-000000000001";
  private static final String SECRET = "the-launch-code-is-7391";

  @TempDir
  Path tmp;
  Path home;
  Path dataDir;

  @BeforeEach
  void openHome() throws IOException {
    // JUnit's temp folder is 0700, which would keep nobody out by itself; a home is 0755.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    home = Files.createDirectories(tmp.resolve("home"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
    dataDir = home.resolve(".local/share/agentdesk");
    Path project = Files.createDirectories(home.resolve(".claude/projects/-home-me-p"));
    Files.writeString(project.resolve(SESSION + ".jsonl"), "{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":"
        + "\"2026-02-01T08:00:00Z\",\"cwd\":\"/home/me/p\",\"sessionId\":\"" + SESSION + "\",\"message\":{\"role\":"
        + "\"user\",\"content\":\"" + SECRET + "\"}}\n");
    // Every folder above the data folder may be entered by anyone, as in a real home.
    for (Path p = home.resolve(".claude"); !p.equals(home); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  private record Run(int exit, String out, String err) {}

  private Run agentdesk(String stdin, String... args) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", cp, "dev.agentdesk.app.Main"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    Map<String, String> env = pb.environment();
    env.put("HOME", home.toString());
    env.remove("XDG_DATA_HOME");
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().flush();
      // A stdio server answers what it read before it sees the end of its input.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.size(out) == 0 && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    }
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("agentdesk %s finished", List.of(args)).isTrue();
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** What the account nobody sees when it reads {@code file}: its bytes, or null when refused. */
  private static String readAsNobody(Path file) throws Exception {
    Process p = new ProcessBuilder("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "cat",
        file.toString()).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return p.exitValue() == 0 ? text : null;
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private void assertPrivate() throws Exception {
    Path db = dataDir.resolve("history.db");
    assertThat(db).exists();
    assertThat(mode(dataDir)).isEqualTo("rwx------");
    assertThat(mode(db)).isEqualTo("rw-------");
    for (String companion : List.of("-wal", "-shm", "-journal")) {
      Path c = dataDir.resolve("history.db" + companion);
      if (Files.exists(c)) {
        assertThat(mode(c)).as(companion).doesNotContain("r--", "rw-r");
        assertThat(mode(c).substring(3)).as(companion).isEqualTo("------");
      }
    }
    assertThat(readAsNobody(db)).as("nobody reading the database through the folder").isNull();
    // Even where the user opens the folders up, the files themselves stay closed.
    openUp();
    try {
      assertThat(readAsNobody(db)).as("nobody reading the database in an open folder").isNull();
      Path wal = dataDir.resolve("history.db-wal");
      if (Files.exists(wal)) {
        assertThat(readAsNobody(wal)).as("nobody reading the WAL").isNull();
      }
    } finally {
      Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
    }
  }

  /** ~/.local, ~/.local/share (made 0700 when missing, as XDG asks) and the data folder made 0755. */
  private void openUp() throws IOException {
    for (Path p = dataDir; !p.equals(home); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void theControlCaseReallyReadsSoTheRefusalsMeanSomething() throws Exception {
    Path open = Files.writeString(home.resolve("open.txt"), SECRET);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(readAsNobody(open)).isEqualTo(SECRET);
  }

  @Test
  void historyImportAsTheFirstCommandMakesTheFolderAndTheDatabasePrivate() throws Exception {
    Run r = agentdesk(null, "history", "import", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(Files.readString(dataDir.resolve("history.db"), StandardCharsets.ISO_8859_1))
        .as("the transcript is in there").contains(SECRET.substring(0, 10));
    assertPrivate();
  }

  @Test
  void mcpAsTheFirstCommandUsesHomeAndMakesItPrivate() throws Exception {
    String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";
    Run r = agentdesk(init, "mcp");
    assertThat(r.out()).as(r.err()).contains("\"serverInfo\"");
    // The database is where the token is looked for: under $HOME, not the JVM's user.home.
    assertThat(dataDir.resolve("history.db")).exists();
    assertPrivate();
  }

  @Test
  void anOlderOpenFolderAndDatabaseAreTightenedByAnyCommand() throws Exception {
    Run first = agentdesk(null, "history", "import");
    assertThat(first.exit()).as(first.err()).isZero();
    // As an older agentdesk left them: the folder and the files readable by everyone.
    openUp();
    try (var files = Files.list(dataDir)) {
      for (Path f : files.toList()) {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
    assertThat(readAsNobody(dataDir.resolve("history.db"))).as("open before").isNotNull();
    Run list = agentdesk(null, "history", "sessions", "--json");
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out()).contains(SESSION);
    assertPrivate();
  }

  @Test
  void aRuntimeRecordingAsTheFirstCommandMakesTheDataFolderPrivate() throws Exception {
    Path token = Files.writeString(tmp.resolve("runtime-token"), "runtime-token-0123456789abcdef\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        cp, "dev.agentdesk.app.Main", "runtime", "--listen", "127.0.0.1:0", "--token-file",
        tmp.resolve("runtime-token").toString(), "--xvfb", "320x200", "--record");
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("XDG_DATA_HOME");
    pb.redirectErrorStream(true).redirectOutput(tmp.resolve("runtime.txt").toFile());
    Process p = pb.start();
    try {
      Path recordings = dataDir.resolve("recordings");
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!Files.isDirectory(recordings) && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(recordings).as(Files.readString(tmp.resolve("runtime.txt"))).isDirectory();
      assertThat(mode(dataDir)).isEqualTo("rwx------");
    } finally {
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void aDatabaseNamedWithDbInANewFolderIsPrivateToo() throws Exception {
    Path db = tmp.resolve("elsewhere/deeper/h.db");
    Run r = agentdesk(null, "history", "import", "--db", db.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(mode(db.getParent())).isEqualTo("rwx------");
    assertThat(mode(db)).isEqualTo("rw-------");
    assertThat(mode(tmp)).as("a folder that existed is the user's own business").isEqualTo("rwxr-xr-x");
  }
}
