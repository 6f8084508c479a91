package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentdesk serve} as a real process: defaults on a fresh home, and SIGTERM. */
class ServeProcessTest {
  @Test
  void freshHomeServesTheDashboardAndSigtermStopsCleanly(@TempDir Path home) throws Exception {
    Process p = ServeChild.start(home, "--port", "0");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      String url = banner.url();
      String printed = banner.text();
      assertThat(url).as(printed).startsWith("http://127.0.0.1:");
      assertThat(printed)
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
      String err = ServeChild.stderr(home);
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
    Process p = ServeChild.start(home, "--port", "0", "--bind", "0.0.0.0", "--no-import");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      String token = banner.after("token required:");
      String url = banner.url();
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
    Process p = ServeChild.start(home, "--port", "70000");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(ServeChild.stderr(home)).contains("port must be 0..65535");

    Process q = ServeChild.start(home, "--token", "short");
    assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(q.exitValue()).isEqualTo(2);
    assertThat(ServeChild.stderr(home)).contains("at least 16 characters");
  }

  @Test
  void unusableDatabasesAreClearErrorsWithoutPasswords(@TempDir Path home) throws Exception {
    Process p = ServeChild.start(home, "--port", "0", "--no-import", "--db-url", "jdbc:postgresql://127.0.0.1:1/x?user=a&password=hunter2");
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String err = ServeChild.stderr(home);
    assertThat(p.exitValue()).as(err).isEqualTo(2);
    assertThat(err).contains("cannot open the history database").doesNotContain("hunter2").doesNotContain("\tat ");

    Process q = ServeChild.start(home, "--port", "0", "--db-url", "sqlite.db");
    assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(q.exitValue()).isEqualTo(2);
    assertThat(ServeChild.stderr(home)).contains("starts with 'jdbc:'");

    Process r = ServeChild.start(home, "--port", "0", "--db", "/proc/no-such-dir/history.db");
    assertThat(r.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(r.exitValue()).isEqualTo(2);
    assertThat(ServeChild.stderr(home)).contains("cannot create the folder /proc/no-such-dir");

    Process both = ServeChild.start(home, "--db", "a.db", "--db-url", "jdbc:sqlite:b.db");
    assertThat(both.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(both.exitValue()).isEqualTo(2);
    assertThat(ServeChild.stderr(home)).contains("mutually exclusive");
  }

  @Test
  void aBusyPortIsAClearError(@TempDir Path home) throws Exception {
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Process p = ServeChild.start(home, "--port", String.valueOf(socket.getLocalPort()), "--no-import");
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      String err = ServeChild.stderr(home);
      assertThat(p.exitValue()).as(err).isEqualTo(2);
      assertThat(err).contains("cannot listen on 127.0.0.1:" + socket.getLocalPort()).doesNotContain("\tat ");
    }
    assertThat(Files.exists(home)).isTrue();
  }
}
