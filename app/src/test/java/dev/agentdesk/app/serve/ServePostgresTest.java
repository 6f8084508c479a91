package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.history.HistoryFixtures;
import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentdesk serve --db-url jdbc:postgresql://...} as a real process against a real PostgreSQL. */
@ExtendWith(PostgresExtension.class)
class ServePostgresTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private ServerClient server;

  private HttpResponse<byte[]> get(String url) throws Exception {
    return http.send(server.authorize(HttpRequest.newBuilder(URI.create(url))).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private JsonNode json(String url) throws Exception {
    HttpResponse<byte[]> r = get(url);
    assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
    return Json.MAPPER.readTree(r.body());
  }

  @Test
  void serveImportsIntoPostgresAndServesTheDetail(PostgresServer pg, @TempDir Path home) throws Exception {
    Path claude = home.resolve("claude");
    HistoryFixtures.claudeCorpus(claude);
    Path codex = Files.createDirectories(home.resolve("codex"));
    String db = pg.createDatabase();
    Process p = ServeChild.start(home, "--port", "0", "--db-url", db, "--claude", claude.toString(), "--codex",
        codex.toString());
    try {
      ServeChild.Banner banner = ServeChild.banner(p);
      String base = banner.base();
      String printed = banner.text();
      server = banner.client(home.resolve(".local/share/agentdesk/token"));
      assertThat(base).as(printed + ServeChild.stderr(home)).startsWith("http://127.0.0.1:");
      // the database is named without its password
      assertThat(printed).contains("jdbc:postgresql://127.0.0.1:" + pg.port())
          .doesNotContain(PostgresServer.PASSWORD);

      JsonNode status = null;
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (Instant.now().isBefore(deadline)) {
        status = json(base + "api/history/import");
        if (status.get("phase").asText().equals("tailing")) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(status.get("phase").asText()).as(status.toString()).isEqualTo("tailing");
      assertThat(status.get("records").asLong()).isPositive();
      assertThat(status.get("database").asText()).startsWith("jdbc:postgresql:").doesNotContain(PostgresServer.PASSWORD);

      JsonNode sessions = json(base + "api/history/sessions");
      assertThat(sessions.get("items")).extracting(s -> s.get("id").asText())
          .contains(HistoryFixtures.SMALL_SESSION, HistoryFixtures.PARENT_SESSION);
      // the session detail over HTTP is the fresh parse of the file, byte for byte
      Path file = claude.resolve("-tmp-stage0").resolve(HistoryFixtures.SMALL_SESSION + ".jsonl");
      HttpResponse<byte[]> detail = get(base + "api/history/sessions/" + HistoryFixtures.SMALL_SESSION);
      assertThat(detail.statusCode()).isEqualTo(200);
      assertThat(detail.body()).isEqualTo(DetailJson.writeUtf8(Transcripts.parse(Provider.CLAUDE, file).detail()));
      assertThat(json(base + "api/history/search?q=Delegate").get("hits")).isNotEmpty();

      // and the rows are in PostgreSQL (no SQLite file was made)
      try (Connection c = PostgresServer.connect(db); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sessions")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(sessions.get("total").asLong() + 1); // + the subagent
      }
      assertThat(home.resolve(".local/share/agentdesk/history.db")).doesNotExist();

      p.toHandle().destroy(); // SIGTERM
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(home.resolve("stderr.txt"))).contains("agentdesk serve: stopped")
          .doesNotContain("Exception");
      assertThat(p.exitValue()).isIn(0, 143);
    } finally {
      p.destroyForcibly();
    }
  }
}
