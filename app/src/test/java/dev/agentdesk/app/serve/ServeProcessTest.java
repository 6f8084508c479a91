package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentdesk serve} as a real process: defaults on a fresh home, the token file, usage errors, SIGTERM. */
class ServeProcessTest {
  @Test
  void freshHomeServesTheDashboardAndSigtermStopsCleanly(@TempDir Path home) throws Exception {
    Process p = ServeChild.start(home, "--port", "0");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      String base = banner.base();
      String printed = banner.text();
      assertThat(base).as(printed).startsWith("http://127.0.0.1:");
      assertThat(printed)
          .contains(home.resolve(".local/share/agentdesk/history.db").toString())
          .contains(home.resolve(".claude/projects").toString())
          .contains(home.resolve(".codex/sessions").toString());
      HttpClient http = HttpClient.newHttpClient();
      // Loopback too: nothing answers without the token.
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "api/health")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base)).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);

      // What a CLI command does: read the token file the server made, call with it.
      ServerClient client = banner.client(tokenFile(home));
      assertThat(client.get("/api/health").status()).isEqualTo(200);
      HttpResponse<String> page = http.send(client.request("/").build(), HttpResponse.BodyHandlers.ofString());
      assertThat(page.body()).contains("<title>agentdesk</title>");

      var term = client.post("/api/terminals", "{\"argv\": [\"sleep\", \"1000\"]}");
      assertThat(term.status()).as(term.body()).isEqualTo(201);
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
  void theTokenIsMadeOnceOwnerOnlyPrintedOnceAndKeptAcrossRestarts(@TempDir Path home) throws Exception {
    Path file = tokenFile(home);
    String token;
    Process p = ServeChild.start(home, "--port", "0", "--no-import");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      token = banner.token();
      assertThat(token).as(banner.text()).hasSize(43).matches("[A-Za-z0-9_-]+");
      assertThat(banner.url()).isEqualTo(banner.base() + "?token=" + token);
      assertThat(banner.text().split(java.util.regex.Pattern.quote(token), -1)).as("the token is printed once").hasSize(2);
      assertThat(banner.after("token file:")).isEqualTo(file + " (new token, mode 0600)");
      assertThat(Files.readString(file).strip()).isEqualTo(token);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
      assertThat(ServeChild.stderr(home)).doesNotContain(token);
    } finally {
      stop(p);
    }
    Process again = ServeChild.start(home, "--port", "0", "--no-import");
    try {
      ServeChild.Banner banner = ServeChild.banner(again);
      assertThat(banner.token()).as("a restart keeps the token, so bookmarks and the CLI keep working").isEqualTo(token);
      assertThat(banner.after("token file:")).isEqualTo(file.toString());
      assertThat(banner.client(file).get("/api/health").status()).isEqualTo(200);
    } finally {
      stop(again);
    }
    // An emptied file gets a new token, and the banner says so.
    Files.writeString(file, "");
    Process third = ServeChild.start(home, "--port", "0", "--no-import");
    try {
      ServeChild.Banner banner = ServeChild.banner(third);
      assertThat(banner.token()).isNotEqualTo(token).isEqualTo(Files.readString(file).strip());
      assertThat(banner.after("token file:")).isEqualTo(file + " (was empty; new token written, mode 0600)");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    } finally {
      stop(third);
    }
  }

  @Test
  void aNonLoopbackBindNeedsTheTokenToo(@TempDir Path home) throws Exception {
    Process p = ServeChild.start(home, "--port", "0", "--bind", "0.0.0.0", "--no-import");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      HttpClient http = HttpClient.newHttpClient();
      assertThat(http.send(HttpRequest.newBuilder(URI.create(banner.base() + "api/health")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
      assertThat(http.send(HttpRequest.newBuilder(URI.create(banner.base() + "api/health"))
          .header("Authorization", "Bearer " + banner.token()).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(200);
    } finally {
      stop(p);
    }
  }

  @Test
  void noTokenServesLoopbackWithoutOneAndWarns(@TempDir Path home) throws Exception {
    Process p = ServeChild.start(home, "--port", "0", "--no-import", "--no-token");
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      assertThat(banner.url()).as(banner.text()).doesNotContain("token").endsWith("/");
      assertThat(banner.text()).doesNotContain("token file");
      assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(banner.url() + "api/health")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
      assertThat(ServeChild.stderr(home)).contains("warning: --no-token: every account on this machine can use this server");
      assertThat(tokenFile(home)).doesNotExist();
    } finally {
      stop(p);
    }
  }

  @Test
  void badArgumentsAreUsageErrors(@TempDir Path home) throws Exception {
    assertUsageError(home, "port must be 0..65535", "--port", "70000");
    assertUsageError(home, "--no-token is refused for --bind 0.0.0.0: that address can be reached from other machines",
        "--no-token", "--bind", "0.0.0.0");
    assertUsageError(home, "mutually exclusive", "--no-token", "--token-file", "t");
    // A token on the command line would be readable by every local user through ps: there is no --token.
    assertUsageError(home, "Unknown options: '--token'", "--token", "0123456789abcdef0123");

    Path shortToken = home.resolve("short-token");
    Files.writeString(shortToken, "short\n");
    Files.setPosixFilePermissions(shortToken, PosixFilePermissions.fromString("rw-------"));
    assertUsageError(home, "does not hold a token (a token has at least 16 characters)", "--token-file", shortToken.toString());

    Path open = home.resolve("open-token");
    Files.writeString(open, "0123456789abcdef0123456789\n");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    assertUsageError(home, "can be read or changed by other users (mode rw-r--r--)", "--token-file", open.toString());
    assertThat(Files.readString(open)).as("a file that may have leaked is reported, not rewritten")
        .isEqualTo("0123456789abcdef0123456789\n");
  }

  @Test
  void aGivenTokenFileIsMadeWhenMissingAndUsed(@TempDir Path home) throws Exception {
    Path file = home.resolve("elsewhere/my-token");
    Process p = ServeChild.start(home, "--port", "0", "--no-import", "--token-file", file.toString());
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      assertThat(Files.readString(file).strip()).isEqualTo(banner.token());
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
      assertThat(banner.client(file).get("/api/health").status()).isEqualTo(200);
      assertThat(tokenFile(home)).doesNotExist();
    } finally {
      stop(p);
    }
  }

  /** Where serve keeps its token in a home without XDG_DATA_HOME. */
  private static Path tokenFile(Path home) {
    return home.resolve(".local/share/agentdesk/token");
  }

  private static void assertUsageError(Path home, String message, String... args) throws Exception {
    Process p = ServeChild.start(home, args);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String err = ServeChild.stderr(home);
    assertThat(p.exitValue()).as(err).isEqualTo(2);
    assertThat(err).contains(message).doesNotContain("\tat ");
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
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
