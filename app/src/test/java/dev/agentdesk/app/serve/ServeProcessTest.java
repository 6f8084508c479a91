package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentdesk serve} as a real process: defaults on a fresh home, and SIGTERM. */
class ServeProcessTest {
  private static final Pattern URL = Pattern.compile("dashboard on (http://\\S+)");

  private static Process start(Path home, String... args) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
        "dev.agentdesk.app.Main", "serve"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("XDG_DATA_HOME");
    pb.redirectError(home.resolve("stderr.txt").toFile());
    return pb.start();
  }

  private static String stderr(Path home) throws java.io.IOException {
    return Files.readString(home.resolve("stderr.txt"), StandardCharsets.UTF_8);
  }

  @Test
  void freshHomeServesTheDashboardAndSigtermStopsCleanly(@TempDir Path home) throws Exception {
    Process p = start(home, "--port", "0");
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String url = null;
      StringBuilder printed = new StringBuilder();
      for (String line; (line = out.readLine()) != null; ) {
        printed.append(line).append('\n');
        Matcher m = URL.matcher(line);
        if (m.find()) {
          url = m.group(1);
        }
        if (line.contains("stop with")) {
          break;
        }
      }
      assertThat(url).as(printed.toString()).startsWith("http://127.0.0.1:");
      assertThat(printed.toString())
          .contains(home.resolve(".local/share/agentdesk/history.db").toString())
          .contains(home.resolve(".claude/projects").toString())
          .contains(home.resolve(".codex/sessions").toString());
      HttpResponse<String> health = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url + "api/health")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      HttpResponse<String> page = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(page.body()).contains("<title>agentdesk</title>");

      HttpResponse<String> term = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "api/terminals"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"argv\": [\"sleep\", \"1000\"]}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(term.statusCode()).as(term.body()).isEqualTo(201);
      long pid = Json.MAPPER.readTree(term.body()).get("pid").asLong();
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

      p.toHandle().destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      String err = stderr(home);
      assertThat(err).contains("agentdesk serve: stopped").doesNotContain("Exception");
      assertThat(p.exitValue()).isIn(0, 143);
      // The PTY's process was killed, and the database was closed (SQLite removes its WAL then).
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      Path db = home.resolve(".local/share/agentdesk/history.db");
      assertThat(db).exists();
      assertThat(Path.of(db + "-wal")).doesNotExist();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void nonLoopbackBindGeneratesAndPrintsAToken(@TempDir Path home) throws Exception {
    Process p = start(home, "--port", "0", "--bind", "0.0.0.0", "--no-import");
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String token = null;
      String url = null;
      for (String line; (line = out.readLine()) != null; ) {
        Matcher m = URL.matcher(line);
        if (m.find()) {
          url = m.group(1);
        }
        if (line.contains("token required:")) {
          token = line.substring(line.indexOf(':') + 1).trim();
        }
        if (line.contains("stop with")) {
          break;
        }
      }
      assertThat(token).hasSizeGreaterThanOrEqualTo(16);
      HttpClient http = HttpClient.newHttpClient();
      assertThat(http.send(HttpRequest.newBuilder(URI.create(url + "api/health")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
      assertThat(http.send(HttpRequest.newBuilder(URI.create(url + "api/health"))
          .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    } finally {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
  }

  @Test
  void badArgumentsAreUsageErrors(@TempDir Path home) throws Exception {
    Process p = start(home, "--port", "70000");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(stderr(home)).contains("port must be 0..65535");

    Process q = start(home, "--token", "short");
    assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(q.exitValue()).isEqualTo(2);
    assertThat(stderr(home)).contains("at least 16 characters");
  }

  @Test
  void unusableDatabasesAreClearErrorsWithoutPasswords(@TempDir Path home) throws Exception {
    Process p = start(home, "--port", "0", "--no-import", "--db-url", "jdbc:postgresql://127.0.0.1:1/x?user=a&password=hunter2");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String err = stderr(home);
    assertThat(p.exitValue()).as(err).isEqualTo(2);
    assertThat(err).contains("cannot open the history database").doesNotContain("hunter2").doesNotContain("\tat ");

    Process q = start(home, "--port", "0", "--db-url", "sqlite.db");
    assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(q.exitValue()).isEqualTo(2);
    assertThat(stderr(home)).contains("starts with 'jdbc:'");

    Process r = start(home, "--port", "0", "--db", "/proc/no-such-dir/history.db");
    assertThat(r.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(r.exitValue()).isEqualTo(2);
    assertThat(stderr(home)).contains("cannot create the folder /proc/no-such-dir");

    Process both = start(home, "--db", "a.db", "--db-url", "jdbc:sqlite:b.db");
    assertThat(both.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(both.exitValue()).isEqualTo(2);
    assertThat(stderr(home)).contains("mutually exclusive");
  }

  @Test
  void aBusyPortIsAClearError(@TempDir Path home) throws Exception {
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Process p = start(home, "--port", String.valueOf(socket.getLocalPort()), "--no-import");
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      String err = stderr(home);
      assertThat(p.exitValue()).as(err).isEqualTo(2);
      assertThat(err).contains("cannot listen on 127.0.0.1:" + socket.getLocalPort()).doesNotContain("\tat ");
    }
    assertThat(Files.exists(home)).isTrue();
  }
}
