package dev.agentdesk.app.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #34's "done means": the release of {@code ./agentdesk dist} (target/dist) works with no java
 * and no mvn on PATH — unpacked from the tarball into a temp folder, and installed from the .deb
 * (then removed cleanly by dpkg -r). Each time: --version, history import + history sessions --json
 * of a fixture, serve up with /api/health answering the token, mcp answering initialize on stdio,
 * doctor --json; and the application CDS archive valid where it is (-Xshare:on).
 *
 * <p>Tagged {@code dist}: run by {@code scripts/dist-test} (builds the release first) or
 * {@code mvn -pl app -am -Pdist verify -Dtest=DistAcceptanceTest -Dsurefire.failIfNoSpecifiedTests=false}
 * after {@code ./agentdesk dist}.
 */
@Tag("dist")
class DistAcceptanceTest {
  static final Path ROOT = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
  static final Path FIXTURE = ROOT.resolve("transcripts/src/test/resources/fixtures/claude/projects");
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration SHORT = Duration.ofSeconds(60);

  @TempDir Path tmp;

  static Path artifact(String glob) throws IOException {
    Path dist = ROOT.resolve("target/dist");
    Path jar = ROOT.resolve("app/target/agentdesk.jar");
    try (Stream<Path> s = Files.exists(dist) ? Files.list(dist) : Stream.empty()) {
      Path found = s.filter(p -> p.getFileSystem().getPathMatcher("glob:" + glob).matches(p.getFileName()))
          .findFirst().orElseThrow(() -> new AssertionError("no " + glob + " in " + dist + ": run ./agentdesk dist first"));
      assertThat(Files.getLastModifiedTime(found)).as(found + " is older than the jar: run ./agentdesk dist again")
          .isGreaterThanOrEqualTo(Files.getLastModifiedTime(jar));
      return found;
    }
  }

  @Test
  void theTarballRunsAnywhereWithoutJavaOrMaven() throws Exception {
    Path tarball = artifact("agentdesk-*-linux-x64.tar.gz");
    Path unpacked = Files.createDirectories(tmp.resolve("somewhere else"));
    Process tar = new ProcessBuilder("tar", "-C", unpacked.toString(), "-xzf", tarball.toString()).inheritIO().start();
    assertThat(tar.waitFor()).isZero();
    Path home;
    try (Stream<Path> s = Files.list(unpacked)) {
      home = s.findFirst().orElseThrow();
    }
    Path exe = home.resolve("bin/agentdesk");
    assertThat(home.resolve("runtime/bin/java")).isExecutable();
    assertThat(home.resolve("share/man/man1/agentdesk.1")).exists();
    assertThat(home.resolve("share/fish/vendor_completions.d/agentdesk.fish")).exists();

    exercise(exe, home, "tarball");
    // The application archive is made for where the release is (lib/make-cds, as install does).
    Process cds = new ProcessBuilder(home.resolve("lib/make-cds").toString()).redirectErrorStream(true).start();
    assertThat(cds.waitFor()).isZero();
    Map<String, String> env = env("cds");
    env.put("AGENTDESK_JAVA_OPTS", "-Xshare:on");
    ReleaseProcess.Result on = ReleaseProcess.run(exe, env, SHORT, "--version");
    assertThat(on.exit()).as("the archive maps where it was made: " + on.err()).isZero();
    JsonNode doctor = JSON.readTree(ReleaseProcess.run(exe, env("cds"), SHORT, "doctor", "--json", "--timeout", "2").out());
    assertThat(check(doctor, "runtime").path("cds_archive").asBoolean()).isTrue();
  }

  @Test
  void theDebInstallsToOptRunsAndIsRemovedCleanly() throws Exception {
    Path deb = artifact("agentdesk_*_amd64.deb");
    dev.agentdesk.testkit.Required.that(Files.isExecutable(Path.of("/usr/bin/dpkg")), "no dpkg on this machine");
    dev.agentdesk.testkit.Required.that("root".equals(System.getProperty("user.name")), "dpkg -i needs root");
    Process status = new ProcessBuilder("dpkg-query", "-W", "-f=${Status}", "agentdesk").redirectErrorStream(true).start();
    String before = new String(status.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    status.waitFor();
    dev.agentdesk.testkit.Required.that(!before.contains("install ok installed"), "an agentdesk package is installed already; not replacing it");
    try {
      assertThat(sh("dpkg", "-i", deb.toString())).as("dpkg -i").isZero();
      Path exe = Path.of("/usr/bin/agentdesk");
      assertThat(Files.isSymbolicLink(exe)).isTrue();
      assertThat(Path.of("/usr/share/man/man1/agentdesk.1.gz")).exists();
      assertThat(Path.of("/usr/share/bash-completion/completions/agentdesk")).exists();
      exercise(exe, Path.of("/opt/agentdesk"), "deb");
      Map<String, String> env = env("deb-cds");
      env.put("AGENTDESK_JAVA_OPTS", "-Xshare:on");
      assertThat(ReleaseProcess.run(exe, env, SHORT, "--version").exit()).as("the .deb's CDS archive is made for /opt/agentdesk")
          .isZero();
    } finally {
      assertThat(sh("dpkg", "-r", "agentdesk")).as("dpkg -r").isZero();
    }
    assertThat(Path.of("/opt/agentdesk")).doesNotExist();
    assertThat(Path.of("/usr/bin/agentdesk")).doesNotExist();
    assertThat(Path.of("/usr/share/man/man1/agentdesk.1.gz")).doesNotExist();
  }

  @Test
  void installPutsItOnPathOnceAndUninstallTakesOnlyItsOwn() throws Exception {
    Path tarball = artifact("agentdesk-*-linux-x64.tar.gz");
    Path prefix = tmp.resolve("prefix");
    Files.createDirectories(prefix.resolve("bin"));
    Files.writeString(prefix.resolve("bin/other"), "someone else's\n");
    Path install = ROOT.resolve("scripts/install");
    Map<String, String> env = new HashMap<>(Map.of("HOME", tmp.toString(), "PATH", prefix.resolve("bin") + ":/usr/bin:/bin"));
    String[] args = {"--tarball", tarball.toString(), "--prefix", prefix.toString()};

    ReleaseProcess.Result first = ReleaseProcess.run(install, env, SHORT, args);
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).contains("unpacked " + tarball.getFileName() + " into " + prefix.resolve("lib/agentdesk"))
        .contains(prefix.resolve("bin") + " is on PATH: 'agentdesk' runs it");
    Path exe = prefix.resolve("bin/agentdesk");
    assertThat(Files.isSymbolicLink(exe)).isTrue();
    assertThat(Files.readString(prefix.resolve("lib/agentdesk/lib/agentdesk.jsa.home"))).isEqualTo(prefix.resolve("lib/agentdesk").toString());
    Map<String, String> minimal = env("installed");
    minimal.put("AGENTDESK_JAVA_OPTS", "-Xshare:on");
    assertThat(ReleaseProcess.run(exe, minimal, SHORT, "--version").exit()).as("runs through the link, CDS archive valid").isZero();
    assertThat(Files.isSymbolicLink(prefix.resolve("share/man/man1/agentdesk.1"))).isTrue();

    ReleaseProcess.Result again = ReleaseProcess.run(install, env, SHORT, args);
    assertThat(again.out()).contains("already holds this release").contains("already in place; nothing changed");

    ReleaseProcess.Result off = ReleaseProcess.run(install, env, SHORT, "--prefix", prefix.toString(), "--uninstall");
    assertThat(off.exit()).as(off.err()).isZero();
    assertThat(prefix.resolve("lib/agentdesk")).doesNotExist();
    assertThat(exe).doesNotExist();
    assertThat(prefix.resolve("share")).doesNotExist();
    assertThat(prefix.resolve("bin/other")).hasContent("someone else's");
  }

  /** The five things the issue names, on one installed agentdesk. */
  private void exercise(Path exe, Path home, String name) throws Exception {
    Map<String, String> env = env(name);
    ReleaseProcess.Result which = ReleaseProcess.run(Path.of("/bin/sh"), env, SHORT, "-c", "command -v java mvn; echo $PATH");
    assertThat(which.out().strip()).as("no java or mvn on PATH").doesNotContain("java").doesNotContain("mvn")
        .endsWith("/bin");

    ReleaseProcess.Result version = ReleaseProcess.run(exe, env, SHORT, "--version");
    assertThat(version.exit()).as(version.err()).isZero();
    assertThat(version.out()).startsWith("agentdesk ").contains("Java 17");

    Path db = tmp.resolve(name + "-history.db");
    ReleaseProcess.Result imp = ReleaseProcess.run(exe, env, SHORT, "history", "import", "--claude", FIXTURE.toString(),
        "--db", db.toString());
    assertThat(imp.exit()).as(imp.err()).isZero();
    ReleaseProcess.Result sessions = ReleaseProcess.run(exe, env, SHORT, "history", "sessions", "--json", "--db", db.toString());
    assertThat(sessions.exit()).as(sessions.err()).isZero();
    JsonNode list = JSON.readTree(sessions.out());
    assertThat(list.toString()).contains("5f0c1a2e-0000-4000-8000-000000000001");

    serve(exe, env, db, name);
    mcp(exe, env, db);

    ReleaseProcess.Result doctor = ReleaseProcess.run(exe, env, SHORT, "doctor", "--json", "--timeout", "2", "--db", db.toString());
    assertThat(doctor.exit()).as(doctor.out() + doctor.err()).isZero();
    JsonNode d = JSON.readTree(doctor.out());
    assertThat(d.path("ok").asBoolean()).isTrue();
    JsonNode runtime = check(d, "runtime");
    assertThat(runtime.path("bundled").asBoolean()).as("runs on the bundled runtime").isTrue();
    assertThat(runtime.path("java_home").asText()).startsWith(home.toRealPath().toString());
    assertThat(check(d, "database").path("schema_version").asInt()).isPositive();
    assertThat(check(d, "git").path("status").asText()).as("git is not on the minimal PATH").isEqualTo("warn");

    claudeConnects(exe, env);
  }

  /**
   * The README's promise: registered with the real Claude Code ({@code mcp install --client claude},
   * which runs {@code claude mcp add}), {@code claude mcp list} starts this agentdesk's MCP server
   * and reports it connected. Skipped, saying so, where no Claude Code CLI is installed.
   */
  private void claudeConnects(Path exe, Map<String, String> env) throws Exception {
    java.util.Optional<Path> claude = dev.agentdesk.app.mcpinstall.ClaudeCliInstallTest.realClaude();
    if (claude.isEmpty()) {
      System.err.println("DistAcceptanceTest: no Claude Code CLI here; 'claude mcp list' not checked");
      return;
    }
    Path bin = Path.of(env.get("PATH"));
    if (!Files.exists(bin.resolve("claude"))) {
      Files.createSymbolicLink(bin.resolve("claude"), claude.get().toRealPath());
    }
    ReleaseProcess.Result add = ReleaseProcess.run(exe, env, SHORT, "mcp", "install", "--client", "claude");
    assertThat(add.exit()).as(add.err()).isZero();
    assertThat(add.out()).contains("claude mcp add --scope user agentdesk -- " + exe + " mcp");
    ReleaseProcess.Result list = ReleaseProcess.run(bin.resolve("claude"), env, SHORT, "mcp", "list");
    assertThat(list.out()).as(list.err()).contains("agentdesk: " + exe + " mcp").contains("Connected")
        .doesNotContain("Failed");
    ReleaseProcess.Result remove = ReleaseProcess.run(exe, env, SHORT, "mcp", "install", "--client", "claude", "--remove");
    assertThat(remove.out()).contains("claude: removed");
  }

  private void serve(Path exe, Map<String, String> env, Path db, String name) throws Exception {
    Path token = tmp.resolve(name + "-token");
    Process p = ReleaseProcess.start(exe, env, "serve", "--port", "0", "--db", db.toString(), "--token-file",
        token.toString(), "--no-import").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader out = ReleaseProcess.reader(p);
      String banner = ReleaseProcess.awaitLine(p, out, "dashboard on", SHORT);
      Matcher m = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(banner);
      assertThat(m.find()).as(banner).isTrue();
      URI health = URI.create(m.group() + "api/health");
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String t = Files.readString(token).strip();
      HttpResponse<String> ok = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + t).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(ok.body()).path("status").asText()).isEqualTo("ok");
      HttpResponse<String> none = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(none.statusCode()).as("without the token").isEqualTo(401);
    } finally {
      ReleaseProcess.stop(p);
    }
  }

  private void mcp(Path exe, Map<String, String> env, Path db) throws Exception {
    Process p = ReleaseProcess.start(exe, env, "mcp", "--db", db.toString(), "--server", "http://127.0.0.1:9/")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      OutputStream in = p.getOutputStream();
      in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"dist-test\",\"version\":\"1\"}}}\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line = ReleaseProcess.awaitLine(p, ReleaseProcess.reader(p), "\"id\":1", SHORT);
      JsonNode answer = JSON.readTree(line);
      assertThat(answer.path("result").path("serverInfo").path("name").asText()).isNotBlank();
      assertThat(answer.path("result").path("protocolVersion").asText()).isNotBlank();
      in.close();
      assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("mcp ends when stdin closes").isTrue();
    } finally {
      ReleaseProcess.stop(p);
    }
  }

  private Map<String, String> env(String name) throws IOException {
    Path home = Files.createDirectories(tmp.resolve(name + "-home"));
    Path bin = ReleaseProcess.minimalPath(tmp.resolve(name + "-path"));
    return new HashMap<>(Map.of("HOME", home.toString(), "PATH", bin.toString()));
  }

  private static JsonNode check(JsonNode doctor, String name) {
    for (JsonNode c : doctor.path("checks")) {
      if (c.path("name").asText().equals(name)) {
        return c;
      }
    }
    throw new AssertionError("no check " + name + " in " + doctor);
  }

  private static int sh(String... argv) throws Exception {
    Process p = new ProcessBuilder(List.of(argv)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = p.waitFor();
    if (exit != 0) {
      System.err.println(String.join(" ", argv) + ":\n" + out);
    }
    return exit;
  }
}
