package dev.agentdesk.app.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.agentdesk.transcripts.TranscriptHistory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code agentdesk doctor} against a made-up machine: a PATH folder of tiny agent scripts (a tested
 * version, an untested one, one that hangs, one that fails), a temp HOME, and a fake serve. Every
 * check is read from the --json document; exit codes for a machine where serve can and cannot run.
 */
class DoctorCommandTest {
  @TempDir Path tmp;
  Path home;
  Path bin;
  Path versions;
  Map<String, String> env;

  @BeforeEach
  void machine() throws IOException {
    home = Files.createDirectories(tmp.resolve("home"));
    bin = Files.createDirectories(tmp.resolve("bin"));
    script("claude", "echo '2.1.328 (Claude Code)'");
    script("codex", "echo 'codex-cli 0.9.1'");
    script("aider", "echo 'no such option' >&2; exit 3");
    // git and the sandbox programs, so only what the test means is missing is missing.
    for (String tool : List.of("git", "Xvfb", "dbus-daemon", "bwrap", "openbox")) {
      script(tool, "echo '" + tool + " version 9.9'");
    }
    versions = tmp.resolve("real-agents.versions");
    Files.writeString(versions, "# pinned\nclaude @anthropic-ai/claude-code 2.1.328\ncodex @openai/codex 0.8.0\n");
    env = new HashMap<>(Map.of("HOME", home.toString(), "PATH", bin.toString()));
  }

  private void script(String name, String body) throws IOException {
    Path p = bin.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  record Run(int exit, JsonNode json, String out) {
    JsonNode check(String name) {
      return StreamSupport.stream(json.path("checks").spliterator(), false)
          .filter(c -> c.path("name").asText().equals(name)).findFirst()
          .orElseThrow(() -> new AssertionError("no check named " + name + " in " + json));
    }
  }

  private Run doctor(TestedVersions tested, String... args) throws IOException {
    DoctorCommand cmd = new DoctorCommand();
    cmd.env = env;
    cmd.tested = tested;
    CommandLine cl = new CommandLine(cmd).setOverwrittenOptionsAllowed(true);
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(new StringWriter()));
    String[] all = new String[args.length + 4];
    all[0] = "--json";
    all[1] = "--timeout";
    all[2] = "1";
    all[3] = "--server=http://127.0.0.1:9/"; // the discard port: nothing answers
    System.arraycopy(args, 0, all, 4, args.length);
    int exit = cl.execute(all);
    return new Run(exit, new ObjectMapper().readTree(out.toString()), out.toString());
  }

  @Test
  void agentsOnPathWithTheirVersionsAgainstTheTestedList() throws IOException {
    script("gemini", "exec /bin/sleep 30"); // hangs: cut at --timeout
    long start = System.nanoTime();
    Run r = doctor(TestedVersions.from(versions));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a hanging --version is cut at --timeout")
        .isLessThan(Duration.ofSeconds(15));
    assertThat(r.exit()).isZero();
    assertThat(r.json().path("ok").asBoolean()).isTrue();

    JsonNode claude = r.check("agent claude");
    assertThat(claude.path("status").asText()).isEqualTo("ok");
    assertThat(claude.path("version").asText()).isEqualTo("2.1.328");
    assertThat(claude.path("tested").asText()).isEqualTo("yes");
    assertThat(claude.path("path").asText()).isEqualTo(bin.resolve("claude").toString());

    JsonNode codex = r.check("agent codex");
    assertThat(codex.path("version").asText()).isEqualTo("0.9.1");
    assertThat(codex.path("tested").asText()).isEqualTo("no");
    assertThat(codex.path("detail").asText()).contains("tested with 0.8.0");

    JsonNode gemini = r.check("agent gemini");
    assertThat(gemini.path("status").asText()).isEqualTo("warn");
    assertThat(gemini.path("detail").asText()).contains("did not answer within 1 s");
    assertThat(gemini.path("fix").asText()).isNotBlank();

    JsonNode aider = r.check("agent aider");
    assertThat(aider.path("status").asText()).isEqualTo("warn");
    assertThat(aider.path("detail").asText()).contains("exited 3");

    JsonNode copilot = r.check("agent copilot");
    assertThat(copilot.path("status").asText()).isEqualTo("info");
    assertThat(copilot.path("path").isNull()).isTrue();
  }

  @Test
  void withoutAListOfTestedVersionsTheAnswerIsUnknown() throws IOException {
    Run r = doctor(TestedVersions.none());
    assertThat(r.check("agent claude").path("tested").asText()).isEqualTo("unknown");
    assertThat(r.check("agent claude").path("detail").asText()).contains("not known whether");
  }

  @Test
  void everyCheckHasTheDocumentedShapeAndProblemsSayTheFix() throws IOException {
    Files.delete(bin.resolve("git"));
    Run r = doctor(TestedVersions.none());
    List<String> names = StreamSupport.stream(r.json().path("checks").spliterator(), false)
        .map(c -> c.path("name").asText()).toList();
    assertThat(names).containsSubsequence("runtime", "git", "Xvfb", "AT-SPI bus", "D-Bus", "bubblewrap",
        "window manager", "Landlock", "agent claude",
        "agent aider", "data folder", "token file", "serve", "database", "postgresql");
    for (JsonNode c : r.json().path("checks")) {
      assertThat(c.path("status").asText()).isIn("ok", "info", "warn", "fail");
      assertThat(c.has("required")).isTrue();
      assertThat(c.path("detail").asText()).isNotBlank();
      if (c.path("status").asText().equals("warn") || c.path("status").asText().equals("fail")) {
        assertThat(c.path("fix").asText()).as("fix of " + c).isNotBlank();
      }
    }
    assertThat(r.check("git").path("status").asText()).isEqualTo("warn");
    assertThat(r.check("git").path("fix").asText()).contains("apt-get install git");
    assertThat(r.exit()).as("git is not needed by serve").isZero();
    assertThat(r.check("runtime").path("java_version").asText()).isEqualTo(System.getProperty("java.version"));
    assertThat(r.check("runtime").path("bundled").asBoolean()).isFalse();
    assertThat(r.check("serve").path("status").asText()).isEqualTo("info");
  }

  @Test
  void theSandboxsIsolationToolsAreNamedWhenMissing() throws IOException {
    Files.delete(bin.resolve("bwrap"));
    Files.delete(bin.resolve("openbox"));
    Run r = doctor(TestedVersions.none());
    assertThat(r.check("bubblewrap").path("status").asText()).isEqualTo("warn");
    assertThat(r.check("bubblewrap").path("fix").asText()).contains("apt-get install bubblewrap");
    assertThat(r.check("window manager").path("fix").asText()).contains("apt-get install openbox");
    assertThat(r.exit()).as("only the sandbox needs them").isZero();
    // this machine's kernel, whatever it has, and both answers' shapes
    assertThat(r.check("Landlock").path("abi").asInt()).isGreaterThanOrEqualTo(0);
    assertThat(SystemChecks.landlock(6).status()).isEqualTo(Check.Status.OK);
    Check old = SystemChecks.landlock(3);
    assertThat(old.status()).isEqualTo(Check.Status.WARN);
    assertThat(old.detail()).contains("ABI 3, scopes need 6").contains("--network");
    assertThat(SystemChecks.landlock(0).detail()).contains("off or unknown");
  }

  @Test
  void aTokenFileOthersCanReadStopsTheMainJob() throws IOException {
    Path data = Files.createDirectories(home.resolve(".local/share/agentdesk"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path token = data.resolve("token");
    Files.writeString(token, "a".repeat(43));
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    Run r = doctor(TestedVersions.none());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.json().path("ok").asBoolean()).isFalse();
    assertThat(r.check("token file").path("status").asText()).isEqualTo("fail");
    assertThat(r.check("token file").path("fix").asText()).contains("chmod 600 " + token);
    assertThat(r.check("data folder").path("status").asText()).isEqualTo("warn");
    assertThat(r.check("data folder").path("fix").asText()).contains("chmod 700 " + data);

    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    Run fixed = doctor(TestedVersions.none());
    assertThat(fixed.exit()).isZero();
    assertThat(fixed.check("token file").path("detail").asText()).contains("rw-------");
    assertThat(fixed.check("data folder").path("detail").asText()).contains("rwx------");
  }

  @Test
  void theDatabasesSchemaVersionAgainstTheOneThisBuildWrites() throws Exception {
    Path db = tmp.resolve("history.db");
    TranscriptHistory.open(db).close();
    Run r = doctor(TestedVersions.none(), "--db", db.toString());
    JsonNode check = r.check("database");
    assertThat(check.path("status").asText()).isEqualTo("ok");
    int known = check.path("schema_known").asInt();
    assertThat(known).isPositive();
    assertThat(check.path("schema_version").asInt()).isEqualTo(known);
    assertThat(r.exit()).isZero();

    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var s = c.createStatement()) {
      s.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (" + (known + 5) + ", 'later')");
    }
    Run newer = doctor(TestedVersions.none(), "--db", db.toString());
    assertThat(newer.exit()).isEqualTo(1);
    assertThat(newer.check("database").path("status").asText()).isEqualTo("fail");
    assertThat(newer.check("database").path("detail").asText()).contains("schema version " + (known + 5));
    assertThat(newer.check("database").path("fix").asText()).contains("newer agentdesk");
  }

  @Test
  void aRunningServeAnswersHealthWithTheTokenFilesToken() throws IOException {
    String token = "t".repeat(43);
    Path tokenFile = tmp.resolve("token");
    Files.writeString(tokenFile, token);
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/api/health", ex -> {
      boolean authorized = ("Bearer " + token).equals(ex.getRequestHeaders().getFirst("Authorization"));
      byte[] body = (authorized ? "{\"status\":\"ok\",\"version\":\"9.8.7\",\"uptime_s\":42}" : "{}")
          .getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(authorized ? 200 : 401, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    try {
      URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
      Run r = doctor(TestedVersions.none(), "--server", url.toString(), "--token-file", tokenFile.toString());
      JsonNode serve = r.check("serve");
      assertThat(serve.path("status").asText()).isEqualTo("ok");
      assertThat(serve.path("version").asText()).isEqualTo("9.8.7");
      assertThat(serve.path("detail").asText()).contains("up 42 s");

      Files.writeString(tokenFile, "w".repeat(43));
      Run wrong = doctor(TestedVersions.none(), "--server", url.toString(), "--token-file", tokenFile.toString());
      assertThat(wrong.check("serve").path("status").asText()).isEqualTo("warn");
      assertThat(wrong.check("serve").path("detail").asText()).contains("refused");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anUnreachablePostgresqlIsAFailThatNamesThePasswordSources() throws IOException {
    Run r = doctor(TestedVersions.none(), "--db-url", "jdbc:postgresql://127.0.0.1:9/nodb?user=u&password=secret");
    JsonNode pg = r.check("postgresql");
    assertThat(pg.path("status").asText()).isEqualTo("fail");
    assertThat(pg.path("url").asText()).contains("password=***").doesNotContain("secret");
    assertThat(pg.path("fix").asText()).contains("PGPASSWORD");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).doesNotContain("secret");
  }

  @Test
  void textOutputNamesEachProblemWithItsFix() {
    List<Check> checks = List.of(Check.ok("runtime", "Java 17"), Check.warn("git", "not on PATH", "apt-get install git"));
    String text = DoctorCommand.text(checks, true);
    assertThat(text).contains("ok    runtime  Java 17").contains("WARN  git      not on PATH")
        .contains("fix: apt-get install git").contains("The main job can run");
  }
}
