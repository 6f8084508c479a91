package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's own path for {@code agentdesk statusline}: the real {@code ./agentdesk} script and
 * curl against a real serve. The JVM it falls back to is a recording stand-in on PATH (the JVM path
 * itself is {@link StatuslineCommandTest}'s): it tells whether the launcher answered alone, or
 * started the JVM, with which arguments and the same input.
 */
class StatuslineLauncherTest {
  @TempDir
  Path dir;
  Path clone;
  Path record;
  Path data;
  Path db;

  @BeforeEach
  void setUp() throws IOException {
    Path root = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
    clone = Files.createDirectories(dir.resolve("clone"));
    Files.copy(root.resolve("agentdesk"), clone.resolve("agentdesk"), StandardCopyOption.COPY_ATTRIBUTES);
    // a jar with no sources beside it is never stale; an archive newer than it is never retrained
    Path target = Files.createDirectories(clone.resolve("app/target"));
    Files.writeString(target.resolve("agentdesk.jar"), "");
    Files.writeString(target.resolve("agentdesk.jsa"), "");
    Files.setLastModifiedTime(target.resolve("agentdesk.jsa"),
        java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    record = dir.resolve("jvm");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$*\" > '" + record + ".args'\ncat > '" + record
        + ".stdin'\necho 'line of the jvm'\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    data = Files.createDirectories(dir.resolve("data/agentdesk"));

    Path project = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    Files.writeString(project.resolve(StatuslineCommandTest.SESSION + ".jsonl"),
        HistoryUsagePeriodsCliTest.line("a1", "2026-12-01T20:10:00.000Z", 3000).replace("{\"type\"",
            "{\"sessionId\":\"" + StatuslineCommandTest.SESSION + "\",\"type\""));
    db = dir.resolve("h.db");
    CliRun imported = run("history", "import", "--claude", dir.resolve("projects").toString(), "--no-progress",
        "--db", db.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
  }

  record Result(String out, String err, long ms, String jvmArgs, String jvmStdin) {}

  private Result statusline(String... args) throws Exception {
    String[] cmd = new String[args.length + 2];
    cmd[0] = clone.resolve("agentdesk").toString();
    cmd[1] = "statusline";
    System.arraycopy(args, 0, cmd, 2, args.length);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", dir.resolve("bin") + ":/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", dir.toString());
    env.put("XDG_DATA_HOME", dir.resolve("data").toString());
    env.put("TZ", "UTC");
    long start = System.nanoTime();
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(StatuslineCommandTest.INPUT.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
    long ms = (System.nanoTime() - start) / 1_000_000;
    String out = read(p.getInputStream());
    String err = read(p.getErrorStream());
    assertThat(p.exitValue()).as(err).isZero();
    Path a = Path.of(record + ".args");
    Path s = Path.of(record + ".stdin");
    return new Result(out, err, ms, Files.exists(a) ? Files.readString(a).strip() : null,
        Files.exists(s) ? Files.readString(s) : null);
  }

  private static String read(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  private TestServer serve() {
    return TestServer.start(new ServeConfig("127.0.0.1", 0, TestServer.newToken(),
        new ServeConfig.Database.SqliteFile(db), dir.resolve("claude-none"), dir.resolve("codex-none"), false,
        dir.resolve("serve-data")), dir);
  }

  @Test
  void aRunningServeAnswersWithoutAJvm() throws Exception {
    try (TestServer s = serve()) {
      Files.writeString(data.resolve("token"), s.token.orElseThrow() + "\n");
      Result r = statusline("--server", s.base + "/");
      // this session's cost from the history ($0.009 of 3000 Sonnet input tokens), not Claude Code's $0.0123
      assertThat(r.out()).startsWith("Sonnet 4.5 | session $0.0090 | today $").endsWith("\n");
      assertThat(r.out().strip()).doesNotContain("\n");
      assertThat(r.jvmArgs()).as("no JVM started").isNull();
      assertThat(r.err()).isEmpty();
    }
  }

  @Test
  void aServeThatRefusesTheTokenLeavesItToTheJvm() throws Exception {
    try (TestServer s = serve()) {
      Files.writeString(data.resolve("token"), "not-the-token-of-this-server\n");
      Result r = statusline("--server", s.base + "/");
      assertThat(r.out()).isEqualTo("line of the jvm\n");
      assertThat(r.jvmArgs()).endsWith("statusline --server " + s.base + "/");
      assertThat(r.jvmStdin().strip()).isEqualTo(StatuslineCommandTest.INPUT.strip());
    }
  }

  @Test
  void nothingListeningStartsTheJvmToldNotToTryAgain() throws Exception {
    int free;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      free = probe.getLocalPort();
    }
    Result r = statusline("--server", "http://127.0.0.1:" + free + "/");
    assertThat(r.out()).isEqualTo("line of the jvm\n");
    assertThat(r.jvmArgs()).endsWith("statusline --server none");
    assertThat(r.jvmStdin().strip()).isEqualTo(StatuslineCommandTest.INPUT.strip());
    assertThat(r.err()).isEmpty();
  }

  @Test
  void aServeThatDoesNotAnswerIsNotWaitedFor() throws Exception {
    try (SilentServer silent = new SilentServer()) {
      String url = silent.url();
      Result r = statusline("--server", url);
      assertThat(r.out()).isEqualTo("line of the jvm\n");
      assertThat(r.jvmArgs()).as("the JVM may try it with its own deadline").endsWith("statusline --server " + url);
      assertThat(r.ms()).as("ms (curl's deadline is 0.6 s)").isLessThan(3000);
    }
  }
}
