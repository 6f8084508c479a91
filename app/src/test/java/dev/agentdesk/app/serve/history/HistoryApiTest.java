package dev.agentdesk.app.serve.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.WsClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history API over a real SQLite file, importing real-format corpus files and tailing them. */
class HistoryApiTest {
  @TempDir static Path dir;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    HistoryFixtures.claudeCorpus(dir.resolve("claude"));
    s = TestServer.withHistory(dir);
    awaitImport(s);
  }

  @AfterAll
  static void stop() {
    if (s != null) {
      s.close();
    }
  }

  static void awaitImport(TestServer s) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (Instant.now().isBefore(deadline)) {
      if (s.get("/api/history/import").json().get("phase").asText().equals("tailing")) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("import did not finish: " + s.get("/api/history/import").body());
  }

  @Test
  void importStatusNamesTheFoldersAndTheDatabase() {
    JsonNode st = s.get("/api/history/import").json();
    assertThat(st.get("phase").asText()).isEqualTo("tailing");
    assertThat(st.get("roots")).extracting(r -> r.get("provider").asText()).containsExactly("claude", "codex");
    assertThat(st.get("roots").get(0).get("exists").asBoolean()).isTrue();
    assertThat(st.get("database").asText()).endsWith("history.db");
    assertThat(st.get("records").asLong()).isPositive();
  }

  @Test
  void sessionsArePagedAndFiltered() {
    JsonNode page = s.get("/api/history/sessions").json();
    assertThat(page.get("total").asLong()).isGreaterThanOrEqualTo(2);
    assertThat(page.get("items")).extracting(i -> i.get("id").asText())
        .contains(HistoryFixtures.SMALL_SESSION, HistoryFixtures.PARENT_SESSION);
    JsonNode first = s.get("/api/history/sessions?limit=1").json();
    assertThat(first.get("items")).hasSize(1);
    JsonNode second = s.get("/api/history/sessions?limit=1&offset=1").json();
    assertThat(second.get("items").get(0).get("id")).isNotEqualTo(first.get("items").get(0).get("id"));
    assertThat(s.get("/api/history/sessions?provider=codex").json().get("total").asLong()).isZero();
    assertThat(s.get("/api/history/sessions?provider=claude").json().get("total").asLong())
        .isEqualTo(page.get("total").asLong());
    JsonNode facets = s.get("/api/history/facets").json();
    assertThat(facets.get("providers")).extracting(JsonNode::asText).containsExactly("claude");
  }

  @Test
  void badListParametersAre400s() {
    for (String q : new String[] {"limit=0", "limit=abc", "limit=100000", "offset=-1", "provider=goose"}) {
      var r = s.get("/api/history/sessions?" + q);
      assertThat(r.status()).as(q).isEqualTo(400);
      assertThat(r.json().get("code").asText()).as(q).isEqualTo("bad_request");
    }
  }

  @Test
  void detailHasTheTranscriptsModulesShape() {
    JsonNode d = s.get("/api/history/sessions/" + HistoryFixtures.PARENT_SESSION).json();
    assertThat(d.get("session").get("id").asText()).isEqualTo(HistoryFixtures.PARENT_SESSION);
    assertThat(d.get("session").get("usage").has("output_tokens")).isTrue();
    assertThat(d.get("entries")).extracting(e -> e.get("type").asText()).contains("message", "tool_call");
    var missing = s.get("/api/history/sessions/no-such-session");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().get("code").asText()).isEqualTo("not_found");
  }

  @Test
  void searchReturnsRankedHitsWithHighlightParts() {
    JsonNode r = s.get("/api/history/search?q=Delegate").json();
    JsonNode hit = r.get("hits").get(0);
    assertThat(hit.get("session_id").asText()).isEqualTo(HistoryFixtures.PARENT_SESSION);
    assertThat(hit.get("source").asText()).isEqualTo("claude");
    assertThat(hit.get("snippet")).anySatisfy(p -> {
      assertThat(p.get("hit").asBoolean()).isTrue();
      assertThat(p.get("text").asText()).containsIgnoringCase("delegate");
    });
    assertThat(s.get("/api/history/search?q=Delegate&provider=codex").json().get("hits")).isEmpty();
    assertThat(s.get("/api/history/search").status()).isEqualTo(400);
    assertThat(s.get("/api/history/search?q=%20").status()).isEqualTo(400);
  }

  @Test
  void hostileSearchSyntaxIsA400NotA500() {
    for (String q : new String[] {"%22unbalanced", "AND", "NEAR(", "*", "a:b:c"}) {
      var r = s.get("/api/history/search?q=" + q);
      assertThat(r.status()).as(q).isIn(200, 400);
    }
  }

  @Test
  void usageByDayAndModel() {
    JsonNode byModel = s.get("/api/history/usage?by=model").json();
    assertThat(byModel.get("rows")).isNotEmpty();
    assertThat(byModel.get("rows").get(0).has("output_tokens")).isTrue();
    assertThat(byModel.get("rows")).allSatisfy(r -> assertThat(r.has("cost_usd")).isTrue());
    assertThat(byModel.get("total").get("cost_usd").asDouble()).isPositive();
    assertThat(byModel.get("prices").get("source").asText()).contains("genai-prices");
    JsonNode byProject = s.get("/api/history/usage?by=project").json();
    assertThat(byProject.get("total").get("cost_usd").asDouble())
        .isCloseTo(byModel.get("total").get("cost_usd").asDouble(), org.assertj.core.api.Assertions.within(1e-5));
    assertThat(s.get("/api/history/usage?by=response").status()).isEqualTo(400);
    JsonNode byDay = s.get("/api/history/usage?by=day").json();
    assertThat(byDay.get("rows")).allSatisfy(r -> assertThat(r.get("key").asText()).matches("\\d{4}-\\d{2}-\\d{2}|unknown"));
    long total = 0;
    for (JsonNode row : byDay.get("rows")) {
      total += row.get("output_tokens").asLong();
    }
    long totalByModel = 0;
    for (JsonNode row : byModel.get("rows")) {
      totalByModel += row.get("output_tokens").asLong();
    }
    assertThat(total).isEqualTo(totalByModel);
    assertThat(s.get("/api/history/usage?by=weekly").status()).isEqualTo(400);
    assertThat(s.get("/api/history/usage?by=day&timezone=Mars/Olympus").status()).isEqualTo(400);
    assertThat(s.get("/api/history/usage?by=day&since=yesterday").status()).isEqualTo(400);
    assertThat(s.get("/api/history/usage?by=day&days=3&since=20260101").status()).isEqualTo(400);
    // weeks, months and blocks hold the same responses as days; every filter applies to every grouping
    for (String by : new String[] {"week", "month", "block"}) {
      JsonNode other = s.get("/api/history/usage?timezone=Europe/Berlin&by=" + by).json();
      assertThat(other.get("total").get("output_tokens").asLong()).as(by).isEqualTo(totalByModel);
      assertThat(other.get("timezone").asText()).isEqualTo("Europe/Berlin");
    }
    assertThat(s.get("/api/history/usage?by=week").json().get("rows"))
        .allSatisfy(r -> assertThat(r.get("key").asText()).matches("\\d{4}-W\\d{2}|unknown"));
    JsonNode blocks = s.get("/api/history/usage?by=block&timezone=UTC&token_limit=max").json();
    assertThat(blocks.get("blocks")).hasSameSizeAs(blocks.get("rows")).isNotEmpty();
    assertThat(blocks.get("blocks").get(0).get("start").asText()).endsWith(":00:00Z");
    String firstModel = byModel.get("rows").get(0).get("key").asText();
    JsonNode oneModel = s.get("/api/history/usage?by=day&model=" + firstModel + "&since=20000101&until=2999-12-31")
        .json();
    assertThat(oneModel.get("total").get("output_tokens").asLong())
        .isEqualTo(byModel.get("rows").get(0).get("output_tokens").asLong());
    JsonNode broken = s.get("/api/history/usage?by=month&breakdown=true&order=desc").json();
    for (JsonNode row : broken.get("rows")) {
      long sum = 0;
      for (JsonNode m : row.get("models")) {
        sum += m.get("output_tokens").asLong();
      }
      assertThat(sum).as(row.get("key").asText()).isEqualTo(row.get("output_tokens").asLong());
    }
    JsonNode modelDays = s.get("/api/history/usage?by=model&days=3650").json();
    assertThat(modelDays.get("total").get("output_tokens").asLong()).isEqualTo(totalByModel);

    // A filter keeps rows, and the total is the sum of the rows it kept. The fixtures are older than
    // today, so the last day alone keeps fewer responses than all of them.
    long everything = byDay.get("total").get("responses").asLong();
    for (int days : new int[] {1, 2, 3650}) {
      JsonNode kept = s.get("/api/history/usage?by=day&days=" + days).json();
      long responses = 0;
      long output = 0;
      for (JsonNode row : kept.get("rows")) {
        responses += row.get("responses").asLong();
        output += row.get("output_tokens").asLong();
      }
      assertThat(kept.get("total").get("responses").asLong()).as("days=%d", days).isEqualTo(responses);
      assertThat(kept.get("total").get("output_tokens").asLong()).as("days=%d", days).isEqualTo(output);
      if (days == 1) {
        assertThat(responses).isLessThan(everything);
      }
    }
  }

  @Test
  void aNewSessionFileAndAppendedLinesAppearWithoutARestart() throws Exception {
    String session = "live-session-0001";
    try (WsClient ws = s.ws("/ws/events")) {
      ws.await(m -> m.get("type").asText().equals("hello"), 5);
      Path proj = Files.createDirectories(dir.resolve("claude").resolve("-tmp-live"));
      Path file = proj.resolve(session + ".jsonl");
      Files.writeString(file, HistoryFixtures.userLine(session, "u1", null, "first words about zebras", "2026-01-02T03:04:05.000Z"));
      ws.await(m -> m.get("type").asText().equals("history-changed"), 20);
      awaitTrue(() -> s.get("/api/history/sessions/" + session).status() == 200, 20);

      Files.writeString(file, HistoryFixtures.userLine(session, "u2", "u1", "later words about okapis", "2026-01-02T03:05:05.000Z"),
          StandardCharsets.UTF_8, StandardOpenOption.APPEND);
      awaitTrue(() -> s.get("/api/history/search?q=okapis").json().get("hits").size() > 0, 20);
      JsonNode d = s.get("/api/history/sessions/" + session).json();
      assertThat(d.get("entries").toString()).contains("zebras", "okapis");
    }
  }

  @Test
  void anEmptyMachineSaysWhereItLooks(@TempDir Path empty) {
    try (TestServer fresh = TestServer.start(new dev.agentdesk.app.serve.ServeConfig("127.0.0.1", 0,
        TestServer.newToken(), new dev.agentdesk.app.serve.ServeConfig.Database.SqliteFile(empty.resolve("h.db")),
        empty.resolve("nope/claude"), empty.resolve("nope/codex"), true, empty.resolve("data")), empty)) {
      assertThat(fresh.get("/api/history/sessions").json().get("total").asLong()).isZero();
      JsonNode st = fresh.get("/api/history/import").json();
      assertThat(st.get("roots")).allSatisfy(r -> assertThat(r.get("exists").asBoolean()).isFalse());
      assertThat(st.get("roots").get(0).get("path").asText()).endsWith("nope/claude");
    }
  }

  static void awaitTrue(java.util.function.BooleanSupplier cond, int seconds) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
    while (Instant.now().isBefore(deadline)) {
      if (cond.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("condition not met within " + seconds + " s");
  }

  static Predicate<JsonNode> type(String t) {
    return m -> m.get("type").asText().equals(t);
  }
}
