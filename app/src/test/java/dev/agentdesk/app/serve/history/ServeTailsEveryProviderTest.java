package dev.agentdesk.app.serve.history;

import static dev.agentdesk.testkit.OpenCodeDatabase.text;
import static dev.agentdesk.testkit.OpenCodeDatabase.tokens;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.history.HistoryFolderOptions;
import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.testkit.OpenCodeDatabase;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import picocli.CommandLine;

/**
 * A real server (SQLite file) tailing every provider's default folders under a temporary
 * {@code $HOME}, resolved by the same {@link HistoryFolderOptions} {@code serve} uses, and the same
 * folders named with the override flags: each of the six tools' session files is written where the
 * tool writes it, appended to, rewritten in place (Gemini's JSON chat, OpenCode's JSON storage) or
 * given rows in an {@code opencode.db} while a writer holds it open; over REST the session appears,
 * its messages grow, a message written again under its id counts once, search finds the new text,
 * usage adds up, and nothing unchanged is read again. Then the History page's provider filter in
 * Chromium shows each provider.
 */
@ExtendWith(Browser.Extension.class)
class ServeTailsEveryProviderTest {
  private static final ObjectMapper M = new ObjectMapper();
  private static final String CWD = "/tmp/live-proj";
  /** The six providers of issue #22 (others may be added to {@link Provider} beside them). */
  private static final List<Provider> SIX = List.of(Provider.CLAUDE, Provider.CODEX, Provider.GEMINI, Provider.OPENCODE,
      Provider.COPILOT, Provider.CURSOR);

  /** The flags of {@code serve}/{@code history import} for folders, parsed as picocli parses the command line. */
  @CommandLine.Command(name = "folders")
  static final class Flags {
    @CommandLine.Mixin HistoryFolderOptions folders = new HistoryFolderOptions();
  }

  static List<Importer.Root> roots(Map<String, String> env, String... args) {
    Flags f = new Flags();
    new CommandLine(f).parseArgs(args);
    return f.folders.roots(env, false);
  }

  /** One live session: its provider, id, and the path {@code Transcripts.parse} reads it from. */
  record Live(Provider provider, String id, Path source) {}

  private final String now = Instant.now().toString();

  @Test
  void defaultFoldersUnderHome(Browser b, @TempDir Path dir) throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Map<String, String> env = Map.of("HOME", home.toString());
    List<Importer.Root> roots = roots(env);
    assertThat(roots).extracting(r -> r.provider()).containsAll(SIX);
    assertThat(roots).allSatisfy(r -> assertThat(r.path()).startsWithRaw(home));
    Map<Provider, Path> where = new LinkedHashMap<>();
    where.put(Provider.CLAUDE, home.resolve(".claude/projects"));
    where.put(Provider.CODEX, home.resolve(".codex/sessions"));
    where.put(Provider.GEMINI, home.resolve(".gemini/tmp"));
    where.put(Provider.OPENCODE, home.resolve(".local/share/opencode"));
    where.put(Provider.COPILOT, home.resolve(".copilot/session-state"));
    where.put(Provider.CURSOR, home.resolve(".cursor/projects"));
    where.forEach((p, path) -> assertThat(roots).contains(new Importer.Root(p, path)));
    run(dir, roots, where, b);
  }

  @Test
  void foldersNamedWithTheOverrideFlags(@TempDir Path dir) throws Exception {
    Path elsewhere = dir.resolve("elsewhere");
    Map<Provider, Path> where = new LinkedHashMap<>();
    for (Provider p : SIX) {
      where.put(p, elsewhere.resolve(p.id()));
    }
    List<String> args = new ArrayList<>();
    where.forEach((p, path) -> args.addAll(List.of("--" + p.id(), path.toString())));
    // the flags win over $HOME: nothing is read from the home folders
    Path home = Files.createDirectories(dir.resolve("home"));
    List<Importer.Root> roots = roots(Map.of("HOME", home.toString()), args.toArray(String[]::new));
    assertThat(roots).hasSize(6).allSatisfy(r -> assertThat(r.path()).startsWithRaw(elsewhere));
    run(dir, roots, where, null);
  }

  private void run(Path dir, List<Importer.Root> roots, Map<Provider, Path> where, Browser b) throws Exception {
    ServeConfig config = new ServeConfig("127.0.0.1", 0, TestServer.newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db").resolve("history.db")), roots, true, dir.resolve("data"));
    try (TestServer s = TestServer.start(config, dir)) {
      HistoryApiTest.awaitImport(s);
      assertThat(s.get("/api/history/sessions").json().get("total").asLong()).isZero();

      // 1. Each tool starts a session where it writes them.
      List<Live> live = new ArrayList<>();
      live.add(claude(where.get(Provider.CLAUDE), 1));
      live.add(codex(where.get(Provider.CODEX), 1));
      live.add(geminiJsonl(where.get(Provider.GEMINI), 1));
      live.add(geminiJson(where.get(Provider.GEMINI), 1));
      live.add(opencodeFiles(where.get(Provider.OPENCODE), 1));
      live.add(copilot(where.get(Provider.COPILOT), 1));
      live.add(cursor(where.get(Provider.CURSOR), 1));
      Path db = where.get(Provider.OPENCODE).resolve("opencode.db");
      try (OpenCodeDatabase writer = OpenCodeDatabase.create(db, "ses_db_live", CWD, "OpenCode database live")) {
        writer.message("msg_db_1", "ses_db_live", "user", 0, null, null);
        writer.part("prt_db_1", "msg_db_1", "ses_db_live", text("first opencode database words"));
        writer.message("msg_db_1b", "ses_db_live", "assistant", 1, "gpt-4o-mini", tokens(70, 7));
        writer.part("prt_db_1b", "msg_db_1b", "ses_db_live", text("opencode database answer"));
        live.add(new Live(Provider.OPENCODE, "ses_db_live", Path.of(db + "#ses_db_live")));
        Map<String, Long> first = new LinkedHashMap<>();
        for (Live l : live) {
          awaitSameAsFreshParse(s, l);
          first.put(l.id(), messages(s, l));
          assertThat(first.get(l.id())).as(l.id()).isPositive();
        }
        assertThat(s.get("/api/history/facets").json().get("providers")).extracting(JsonNode::asText)
            .containsExactlyInAnyOrder("claude", "codex", "gemini", "opencode", "copilot", "cursor");
        for (Provider p : SIX) {
          assertThat(s.get("/api/history/sessions?provider=" + p.id()).json().get("total").asLong()).as(p.id())
              .isEqualTo(live.stream().filter(l -> l.provider() == p).count());
        }

        // 2. OpenCode is mid-write: an uncommitted row is not seen and does not block the server.
        writer.connection().setAutoCommit(false);
        writer.message("msg_db_2", "ses_db_live", "user", 2, null, null);
        writer.part("prt_db_2", "msg_db_2", "ses_db_live", text("quokkadatabase opencode words"));

        // 3. Every session grows; the new words are the provider's own.
        claude(where.get(Provider.CLAUDE), 2);
        codex(where.get(Provider.CODEX), 2);
        geminiJsonl(where.get(Provider.GEMINI), 2);
        geminiJson(where.get(Provider.GEMINI), 2);
        opencodeFiles(where.get(Provider.OPENCODE), 2);
        copilot(where.get(Provider.COPILOT), 2);
        cursor(where.get(Provider.CURSOR), 2);
        for (Live l : live) {
          if (l.id().equals("ses_db_live")) {
            continue;
          }
          awaitSameAsFreshParse(s, l);
          assertThat(messages(s, l)).as(l.id() + " grew").isGreaterThan(first.get(l.id()));
          String word = word(l.id());
          HistoryApiTest.awaitTrue(() -> hits(s, word).contains(l.id()), 20);
        }
        assertThat(hits(s, "quokkadatabase")).doesNotContain("ses_db_live");
        writer.connection().commit();
        Live dbLive = live.get(live.size() - 1);
        awaitSameAsFreshParse(s, dbLive);
        assertThat(messages(s, dbLive)).isGreaterThan(first.get("ses_db_live"));
        HistoryApiTest.awaitTrue(() -> hits(s, "quokkadatabase").contains("ses_db_live"), 20);

        // 4. A message written again under its id replaces its copy: counted once, its usage once.
        Map<String, Long> grown = new LinkedHashMap<>();
        for (Live l : live) {
          grown.put(l.id(), messages(s, l));
        }
        claude(where.get(Provider.CLAUDE), 3);
        geminiJsonl(where.get(Provider.GEMINI), 3);
        opencodeFiles(where.get(Provider.OPENCODE), 3);
        for (Live l : live) {
          awaitSameAsFreshParse(s, l);
          assertThat(messages(s, l)).as(l.id() + " counted once").isEqualTo(grown.get(l.id()));
        }
        Live gemini = live.get(2);
        HistoryApiTest.awaitTrue(() -> detail(s, gemini).get("entries").toString().contains("the whole answer"), 20);
        assertThat(usage(s, gemini).get("output_tokens").asLong()).isEqualTo(10 + 40);

        // 5. Usage adds up: the sessions' totals are the usage report's.
        long output = 0;
        long input = 0;
        for (Live l : live) {
          output += usage(s, l).path("output_tokens").asLong();
          input += usage(s, l).path("input_tokens").asLong();
        }
        JsonNode total = s.get("/api/history/usage?by=model").json().get("total");
        assertThat(output).isPositive();
        assertThat(total.get("output_tokens").asLong()).isEqualTo(output);
        assertThat(total.get("input_tokens").asLong()).isEqualTo(input);

        // 6. Nothing unchanged is read again: not on later tail rounds, not when only times change.
        long records = s.get("/api/history/import").json().get("records").asLong();
        for (Live l : live) {
          Path f = l.source().toString().contains("#") ? db : l.source();
          Files.setLastModifiedTime(f, FileTime.from(Instant.now()));
        }
        Thread.sleep(3000);
        assertThat(s.get("/api/history/import").json().get("records").asLong()).isEqualTo(records);
        assertThat(s.get("/api/history/import").json().get("errors").asInt()).isZero();
        writer.connection().setAutoCommit(true);
      }

      if (b != null) {
        providerFilterShowsEachProvider(b, s);
      }
    }
  }

  private static void providerFilterShowsEachProvider(Browser b, TestServer s) throws InterruptedException {
    b.open(s.page("#/history"));
    b.await(By.cssSelector("#sessions tbody tr"));
    Select filter = new Select(b.await(By.id("filter-provider")));
    List<String> offered = filter.getOptions().stream().map(o -> o.getAttribute("value")).filter(v -> !v.isEmpty())
        .toList();
    assertThat(offered).containsExactlyInAnyOrder("claude", "codex", "gemini", "opencode", "copilot", "cursor");
    for (String p : offered) {
      new Select(b.await(By.id("filter-provider"))).selectByValue(p);
      HistoryApiTest.awaitTrue(() -> b.driver.getCurrentUrl().contains("provider=" + p), 10);
      b.await(By.cssSelector("#sessions tbody tr"));
      HistoryApiTest.awaitTrue(() -> {
        List<WebElement> badges = b.driver.findElements(By.cssSelector("#sessions tbody .badge.provider"));
        return !badges.isEmpty() && badges.stream().allMatch(e -> e.getText().equals(p));
      }, 10);
    }
    b.screenshot("history-provider-filter");
  }

  // ---- REST ----

  private static JsonNode detail(TestServer s, Live l) {
    return s.get("/api/history/sessions/" + l.id()).json();
  }

  private static long messages(TestServer s, Live l) {
    return detail(s, l).get("session").get("message_count").asLong();
  }

  private static JsonNode usage(TestServer s, Live l) {
    return detail(s, l).get("session").path("usage");
  }

  /** The one word of a session's later text that no other session has. */
  private static String word(String id) {
    return "quokka" + id.replaceAll("[^A-Za-z0-9]", "");
  }

  private static String hits(TestServer s, String q) {
    return s.get("/api/history/search?q=" + q.replace(" ", "%20")).json().get("hits").toString();
  }

  /** Waits until the server's copy of the session has the fresh parse's message count and usage. */
  private static void awaitSameAsFreshParse(TestServer s, Live l) throws Exception {
    JsonNode fresh = M.readTree(DetailJson.write(Transcripts.parse(l.provider(), l.source()).detail())).get("session");
    String[] last = {""};
    try {
      HistoryApiTest.awaitTrue(() -> {
        TestServer.Response r = s.get("/api/history/sessions/" + l.id());
        if (r.status() != 200) {
          last[0] = r.status() + " " + r.body();
          return false;
        }
        JsonNode got = r.json().get("session");
        last[0] = got.toString();
        return got.get("message_count").equals(fresh.get("message_count"))
            && got.path("usage").path("output_tokens").equals(fresh.path("usage").path("output_tokens"))
            && got.path("usage").path("input_tokens").equals(fresh.path("usage").path("input_tokens"));
      }, 40); // a folder made after the server started is picked up by its next safety pass (15 s)
    } catch (AssertionError e) {
      throw new AssertionError(l + ": server has " + last[0] + ", a fresh parse " + fresh, e);
    }
  }

  // ---- the tools' files ----

  private static Path append(Path f, String... lines) throws IOException {
    Files.createDirectories(f.getParent());
    Files.writeString(f, String.join("\n", lines) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return f;
  }

  private static void rewrite(Path f, String text) throws IOException {
    Files.createDirectories(f.getParent());
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private Live claude(Path root, int step) throws IOException {
    String id = "5f0c1a2b-0000-4000-8000-00000000c1a0";
    Path f = root.resolve("-tmp-live-proj").resolve(id + ".jsonl");
    switch (step) {
      case 1 -> append(f, HistoryFixtures.userLine(id, "u1", null, "first claude words", now).strip(),
          HistoryFixtures.assistantLine(id, "a1", "u1", "claude-sonnet-4-5", "claude answer", now, 100, 10).strip());
      case 2 -> append(f, HistoryFixtures.userLine(id, "u2", "a1", word(id), now).strip(),
          HistoryFixtures.assistantLine(id, "a2", "u2", "claude-sonnet-4-5", "claude second answer", now, 200, 20).strip());
      default -> append(f, HistoryFixtures.assistantLine(id, "a2", "u2", "claude-sonnet-4-5", "claude second answer", now,
          200, 20).strip());
    }
    return new Live(Provider.CLAUDE, id, f);
  }

  private Live codex(Path root, int step) throws IOException {
    String id = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    LocalDate d = LocalDate.now(ZoneOffset.UTC);
    Path f = root.resolve(String.format("%04d/%02d/%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth()))
        .resolve("rollout-" + d + "T10-00-00-" + id + ".jsonl");
    String user = word(id);
    switch (step) {
      case 1 -> append(f,
          "{\"timestamp\":\"" + now + "\",\"type\":\"session_meta\",\"payload\":{\"id\":\"" + id + "\",\"timestamp\":\""
              + now + "\",\"cwd\":\"" + CWD + "\",\"originator\":\"codex_cli_rs\",\"cli_version\":\"0.77.0\"}}",
          "{\"timestamp\":\"" + now + "\",\"type\":\"turn_context\",\"payload\":{\"cwd\":\"" + CWD + "\",\"model\":\"gpt-5\"}}",
          codexUser(now, "first codex words"), codexAgent(now, "codex answer"), codexTokens(now, 100, 10, 100, 10));
      case 2 -> append(f, codexUser(now, user), codexAgent(now, "codex second answer"), codexTokens(now, 200, 20, 300, 30));
      default -> { }
    }
    return new Live(Provider.CODEX, id, f);
  }

  private static String codexUser(String ts, String text) {
    return "{\"timestamp\":\"" + ts + "\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\""
        + text + "\"}}";
  }

  private static String codexAgent(String ts, String text) {
    return "{\"timestamp\":\"" + ts + "\",\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\""
        + text + "\"}}";
  }

  /** A token_count: this response's usage and the running total. */
  private static String codexTokens(String ts, long in, long out, long totalIn, long totalOut) {
    return "{\"timestamp\":\"" + ts + "\",\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{"
        + "\"total_token_usage\":{\"input_tokens\":" + totalIn + ",\"cached_input_tokens\":0,\"output_tokens\":" + totalOut
        + ",\"reasoning_output_tokens\":0,\"total_tokens\":" + (totalIn + totalOut) + "},\"last_token_usage\":{"
        + "\"input_tokens\":" + in + ",\"cached_input_tokens\":0,\"output_tokens\":" + out
        + ",\"reasoning_output_tokens\":0,\"total_tokens\":" + (in + out) + "}}}}";
  }

  private Live geminiJsonl(Path root, int step) throws IOException {
    String id = "gem-live-jsonl";
    Path f = root.resolve("live-proj").resolve("chats").resolve("session-2026-12-01T10-00-gemlive1.jsonl");
    switch (step) {
      case 1 -> append(f,
          "{\"sessionId\":\"" + id + "\",\"projectHash\":\"" + "ab".repeat(32) + "\",\"startTime\":\"" + now
              + "\",\"lastUpdated\":\"" + now + "\",\"kind\":\"main\"}",
          "{\"id\":\"gu1\",\"timestamp\":\"" + now + "\",\"type\":\"user\",\"content\":[{\"text\":\"first gemini words\"}]}",
          geminiReply("ga1", "gemini answer", 100, 10));
      case 2 -> append(f,
          "{\"id\":\"gu2\",\"timestamp\":\"" + now + "\",\"type\":\"user\",\"content\":[{\"text\":\"" + word(id) + "\"}]}",
          "{\"$set\":{\"lastUpdated\":\"" + now + "\"}}",
          geminiReply("ga2", "the first half", 200, 15));
      default -> append(f, geminiReply("ga2", "the first half and the whole answer", 200, 40));
    }
    return new Live(Provider.GEMINI, id, f);
  }

  private String geminiReply(String id, String text, long in, long out) {
    return "{\"id\":\"" + id + "\",\"timestamp\":\"" + now + "\",\"type\":\"gemini\",\"content\":\"" + text
        + "\",\"thoughts\":[],\"tokens\":{\"input\":" + in + ",\"output\":" + out + ",\"cached\":0,\"thoughts\":0,"
        + "\"tool\":0,\"total\":" + (in + out) + "},\"model\":\"gemini-2.5-pro\"}";
  }

  private Live geminiJson(Path root, int step) throws IOException {
    String id = "gem-live-json";
    Path f = root.resolve("older-proj").resolve("chats").resolve("session-2026-12-01T10-00-gemjson1.json");
    List<String> messages = new ArrayList<>(List.of(
        "{\"id\":\"j1\",\"timestamp\":\"" + now + "\",\"type\":\"user\",\"content\":\"first gemini json words\"}",
        geminiReply("j2", "gemini json answer", 50, 5)));
    if (step >= 2) {
      messages.add("{\"id\":\"j3\",\"timestamp\":\"" + now + "\",\"type\":\"user\",\"content\":\"" + word(id) + "\"}");
      messages.add(geminiReply("j4", "gemini json second answer", 60, 6));
    }
    rewrite(f, "{\"sessionId\":\"" + id + "\",\"projectHash\":\"" + "cd".repeat(32) + "\",\"startTime\":\"" + now
        + "\",\"lastUpdated\":\"" + now + "\",\"messages\":[\n" + String.join(",\n", messages) + "\n]}\n");
    return new Live(Provider.GEMINI, id, f);
  }

  private Live opencodeFiles(Path root, int step) throws IOException {
    String id = "ses_files_live";
    Path storage = root.resolve("storage");
    Path session = storage.resolve("session/proj_live/" + id + ".json");
    long t = Instant.now().toEpochMilli();
    switch (step) {
      case 1 -> {
        rewrite(storage.resolve("message/" + id + "/msg_f1.json"), message("msg_f1", id, "user", t, null));
        rewrite(storage.resolve("part/msg_f1/prt_f1.json"), part("prt_f1", "msg_f1", id, text("first opencode words")));
        rewrite(storage.resolve("message/" + id + "/msg_f2.json"), message("msg_f2", id, "assistant", t + 1, tokens(100, 10)));
        rewrite(storage.resolve("part/msg_f2/prt_f2.json"), part("prt_f2", "msg_f2", id, text("opencode answer")));
        rewrite(session, "{\"id\":\"" + id + "\",\"version\":\"1.1.0\",\"projectID\":\"proj_live\",\"directory\":\"" + CWD
            + "\",\"title\":\"OpenCode live\",\"time\":{\"created\":" + t + ",\"updated\":" + t + "}}");
      }
      case 2 -> {
        rewrite(storage.resolve("message/" + id + "/msg_f3.json"), message("msg_f3", id, "user", t + 2, null));
        rewrite(storage.resolve("part/msg_f3/prt_f3.json"), part("prt_f3", "msg_f3", id, text(word(id))));
        rewrite(session, "{\"id\":\"" + id + "\",\"version\":\"1.1.0\",\"projectID\":\"proj_live\",\"directory\":\"" + CWD
            + "\",\"title\":\"OpenCode live\",\"time\":{\"created\":" + t + ",\"updated\":" + (t + 2) + "}}");
      }
      default -> { // the assistant message rewritten in place as it finishes: same id, final tokens
        rewrite(storage.resolve("message/" + id + "/msg_f2.json"), message("msg_f2", id, "assistant", t + 1,
            tokens(100, 25)));
        rewrite(session, "{\"id\":\"" + id + "\",\"version\":\"1.1.0\",\"projectID\":\"proj_live\",\"directory\":\"" + CWD
            + "\",\"title\":\"OpenCode live\",\"time\":{\"created\":" + t + ",\"updated\":" + (t + 3) + "}}");
      }
    }
    return new Live(Provider.OPENCODE, id, session);
  }

  private static String message(String id, String session, String role, long t, String tokens) {
    return "{\"id\":\"" + id + "\",\"sessionID\":\"" + session + "\",\"role\":\"" + role + "\",\"time\":{\"created\":" + t
        + "}" + (tokens == null ? "" : ",\"modelID\":\"gpt-4o-mini\",\"providerID\":\"openai\",\"tokens\":" + tokens) + "}";
  }

  private static String part(String id, String message, String session, String body) {
    return "{\"id\":\"" + id + "\",\"messageID\":\"" + message + "\",\"sessionID\":\"" + session + "\"," + body.substring(1);
  }

  private Live copilot(Path root, int step) throws IOException {
    String id = "3c0b1e5a-1111-4222-8333-c0b1107e0001";
    Path f = root.resolve(id).resolve("events.jsonl");
    switch (step) {
      case 1 -> append(f,
          "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"" + id + "\",\"version\":1,\"producer\":\"copilot-agent\","
              + "\"copilotVersion\":\"1.0.77\",\"startTime\":\"" + now + "\",\"selectedModel\":\"gpt-5-mini\",\"context\":{\"cwd\":\""
              + CWD + "\"}},\"id\":\"e1\",\"timestamp\":\"" + now + "\",\"parentId\":null}",
          copilotEvent("user.message", "{\"content\":\"first copilot words\"}", "e2"),
          copilotEvent("assistant.message", "{\"content\":\"copilot answer\",\"toolRequests\":[],\"messageId\":\"m1\"}", "e3"));
      case 2 -> append(f,
          copilotEvent("user.message", "{\"content\":\"" + word(id) + "\"}", "e4"),
          copilotEvent("assistant.message", "{\"content\":\"copilot second answer\",\"toolRequests\":[],\"messageId\":\"m2\"}",
              "e5"),
          copilotEvent("session.shutdown", "{\"shutdownType\":\"routine\",\"modelMetrics\":{\"gpt-5-mini\":{\"requests\":"
              + "{\"count\":2},\"usage\":{\"inputTokens\":120,\"outputTokens\":12,\"cacheReadTokens\":20,\"cacheWriteTokens\":0}}}}",
              "e6"));
      default -> { }
    }
    return new Live(Provider.COPILOT, id, f);
  }

  private String copilotEvent(String type, String data, String id) {
    return "{\"type\":\"" + type + "\",\"data\":" + data + ",\"id\":\"" + id + "\",\"timestamp\":\"" + now
        + "\",\"parentId\":null}";
  }

  private static Live cursor(Path root, int step) throws IOException {
    String id = "c7a9e0f2-2222-4333-8444-cc00bb11aa22";
    Path f = root.resolve("tmp-live-proj").resolve("agent-transcripts").resolve(id).resolve(id + ".jsonl");
    switch (step) {
      case 1 -> append(f, cursorLine("user", "first cursor words"), cursorLine("assistant", "cursor answer"),
          "{\"type\":\"turn_ended\",\"status\":\"success\"}");
      case 2 -> append(f, cursorLine("user", word(id)), cursorLine("assistant", "cursor second answer"));
      default -> { }
    }
    return new Live(Provider.CURSOR, id, f);
  }

  private static String cursorLine(String role, String text) {
    return "{\"role\":\"" + role + "\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}}";
  }
}
