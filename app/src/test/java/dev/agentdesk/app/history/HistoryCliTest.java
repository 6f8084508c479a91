package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history CLI end to end against a real SQLite file and real transcript files. */
class HistoryCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String SESSION = "7a0c0000-0000-4000-8000-00000000000a";

  @TempDir
  Path dir;
  Path projects;
  Path db;

  @BeforeEach
  void writeTranscript() throws IOException {
    projects = dir.resolve("projects");
    db = dir.resolve("data/history.db");
    transcript(projects);
  }

  /** The test transcript (session {@link #SESSION}, model claude-sonnet-4-5, a bad line 4) under {@code projects}. */
  static Path transcript(Path projects) throws IOException {
    Path project = Files.createDirectories(projects.resolve("-home-dev-cli"));
    String base = "\"cwd\":\"/home/dev/cli\",\"sessionId\":\"" + SESSION + "\",\"version\":\"2.1.0\"";
    return Files.writeString(project.resolve(SESSION + ".jsonl"), String.join("\n",
        "{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":\"2026-02-01T08:00:00Z\"," + base
            + ",\"message\":{\"role\":\"user\",\"content\":\"Why is the flamingo pink?\"}}",
        "{\"type\":\"assistant\",\"uuid\":\"a1\",\"timestamp\":\"2026-02-01T08:00:05Z\",\"requestId\":\"r1\"," + base
            + ",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"Carotenoids in its diet.\"}],\"usage\":{\"input_tokens\":7,"
            + "\"output_tokens\":11,\"cache_read_input_tokens\":100,\"cache_creation_input_tokens\":5}}}",
        "{\"type\":\"assistant\",\"uuid\":\"a2\",\"timestamp\":\"2026-02-01T08:00:06Z\",\"requestId\":\"r1\"," + base
            + ",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":"
            + "[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Bash\",\"input\":{\"command\":\"echo shrimp\"}}],"
            + "\"usage\":{\"input_tokens\":7,\"output_tokens\":11,\"cache_read_input_tokens\":100,"
            + "\"cache_creation_input_tokens\":5}}}",
        "not json at all",
        ""));
  }

  /**
   * A Claude Code 2.1 session that ended cleanly: one response, one API-error line, and the
   * cost-state Claude Code writes on exit. The recorded cost stands beside the calculated one in
   * {@code history show} and in the session list; the error line is no response.
   */
  @Test
  void theAgentsRecordedCostStandsBesideTheCalculatedOne() throws IOException {
    String id = "7a0c0000-0000-4000-8000-00000000000b";
    Path project = Files.createDirectories(dir.resolve("p21/-home-dev-cost"));
    String base = "\"cwd\":\"/home/dev/cost\",\"sessionId\":\"" + id + "\",\"version\":\"2.1.328\"";
    Files.writeString(project.resolve(id + ".jsonl"), String.join("\n",
        "{\"type\":\"user\",\"uuid\":\"u1\",\"timestamp\":\"2026-11-20T08:00:00Z\"," + base
            + ",\"message\":{\"role\":\"user\",\"content\":\"Count the flamingos\"}}",
        "{\"type\":\"assistant\",\"uuid\":\"a1\",\"timestamp\":\"2026-11-20T08:00:05Z\",\"requestId\":\"r1\"," + base
            + ",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"Forty.\"}],\"usage\":{\"input_tokens\":7,\"output_tokens\":11}}}",
        "{\"type\":\"assistant\",\"uuid\":\"e1\",\"timestamp\":\"2026-11-20T08:01:00Z\"," + base
            + ",\"isApiErrorMessage\":true,\"apiErrorStatus\":529,\"error\":\"server_error\",\"message\":{\"id\":\"x1\","
            + "\"role\":\"assistant\",\"model\":\"<synthetic>\",\"content\":[{\"type\":\"text\",\"text\":"
            + "\"API Error: 529 Overloaded\"}],\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}}",
        "{\"type\":\"cost-state\",\"sessionId\":\"" + id + "\",\"totalCostUSD\":0.25,\"totalAPIDuration\":9000,"
            + "\"totalAPIDurationWithoutRetries\":4000,\"modelUsage\":{\"claude-sonnet-4-5\":{\"inputTokens\":7,"
            + "\"outputTokens\":11,\"costUSD\":0.25}}}",
        ""));
    assertThat(run("history", "import", "--claude", dir.resolve("p21").toString(), "--db", db.toString()).exit())
        .isZero();
    JsonNode listed = JSON.readTree(run("history", "sessions", "--json", "--db", db.toString()).out())
        .get("sessions").get(0);
    assertThat(listed.get("recorded_cost_usd").asDouble()).isEqualTo(0.25);
    CliRun show = run("history", "show", id, "--db", db.toString());
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out()).containsPattern("\n- cost: \\$0\\.0002;.*\n- recorded cost \\(the agent's own figure\\):"
        + " \\$0\\.2500 \\(claude-sonnet-4-5 \\$0\\.2500\\); API time 9\\.0 s, of which retries 5\\.0 s\n");
    assertThat(show.out()).contains("## system · error · 2026-11-20T08:01:00.000Z\n\nAPI Error: 529 Overloaded\n");
    JsonNode usage = JSON.readTree(run("history", "usage", "--json", "--db", db.toString()).out());
    assertThat(usage.toString()).contains("\"responses\":1").doesNotContain("synthetic");
    JsonNode bySession = JSON.readTree(run("history", "usage", "--by", "session", "--json", "--db", db.toString())
        .out());
    assertThat(bySession.get("rows").get(0).get("recorded_cost_usd").asDouble()).isEqualTo(0.25);
    assertThat(bySession.get("total").get("recorded_cost_usd").asDouble()).isEqualTo(0.25);
    CliRun table = run("history", "usage", "--by", "session", "--db", db.toString());
    // --mode auto (the default): the agent's figure is the cost, the calculated one and the difference beside
    assertThat(table.out()).containsPattern("recorded_usd +difference\n" + id
        + " +1 .* \\$0\\.2500 +\\$0\\.0002 +\\$0\\.2500 +\\+\\$0\\.2498\n");
  }

  @Test
  void importThenListShowSearchAndUsage() throws IOException {
    CliRun imp = run("history", "import", "--claude", projects.toString(), "--db", db.toString(), "--json");
    assertThat(imp.exit()).as(imp.err()).isZero();
    JsonNode report = JSON.readTree(imp.out());
    assertThat(report.get("files").asInt()).isEqualTo(1);
    assertThat(report.get("problems").get(0).get("line").asInt()).isEqualTo(4);
    assertThat(imp.err()).contains("importing 1 files").contains("100%");
    // stderr is a pipe here, not a terminal: plain lines, no carriage-return redraws
    assertThat(imp.err()).doesNotContain("\r").contains("imported 100% (");

    // --db before or after the arguments, on history or on the subcommand
    CliRun list = run("history", "--db", db.toString(), "sessions", "--json");
    assertThat(list.exit()).as(list.err()).isZero();
    JsonNode sessions = JSON.readTree(list.out()).get("sessions");
    assertThat(sessions).hasSize(1);
    assertThat(sessions.get(0).get("title").asText()).isEqualTo("Why is the flamingo pink?");
    // 'history sessions …' runs the report's own command alone (AgentdeskCommand.forArgs): same answer,
    // same name in its help and errors as under the whole tree
    CliRun alone = run("history", "sessions", "--json", "--db", db.toString());
    assertThat(alone.exit()).as(alone.err()).isZero();
    assertThat(alone.out()).isEqualTo(list.out());
    assertThat(run("history", "usage", "--help").out()).startsWith("Usage: agentdesk history usage ");
    CliRun wrong = run("history", "usage", "--bogus");
    assertThat(wrong.exit()).isEqualTo(2);
    assertThat(wrong.err()).contains("Unknown option: '--bogus'").contains("Usage: agentdesk history usage ");

    CliRun show = run("history", "show", SESSION, "--json", "--db", db.toString());
    assertThat(show.exit()).as(show.err()).isZero();
    CliRun parse = run("history", "parse", projects.resolve("-home-dev-cli/" + SESSION + ".jsonl").toString(), "--json");
    assertThat(parse.exit()).isZero();
    assertThat(show.out()).isEqualTo(parse.out());
    assertThat(parse.err()).contains(":4: invalid JSON");
    JsonNode usage = JSON.readTree(show.out()).get("session").get("usage");
    assertThat(usage.get("output_tokens").asLong()).isEqualTo(11);

    CliRun md = run("history", "show", "--db", db.toString(), "7a0c");
    assertThat(md.exit()).as(md.err()).isZero();
    assertThat(md.out()).contains("# Why is the flamingo pink?").contains("Carotenoids").contains("echo shrimp");

    CliRun search = run("history", "search", "flamingo", "--json", "--db", db.toString());
    assertThat(search.exit()).isZero();
    JsonNode hits = JSON.readTree(search.out());
    assertThat(hits.get(0).get("session_id").asText()).isEqualTo(SESSION);
    assertThat(hits.get(0).get("snippet").asText()).contains("[flamingo]");

    CliRun byModel = run("history", "usage", "--by", "model", "--json", "--db", db.toString());
    assertThat(byModel.exit()).isZero();
    JsonNode rows = JSON.readTree(byModel.out()).get("rows");
    assertThat(rows.get(0).get("key").asText()).isEqualTo("claude-sonnet-4-5");
    assertThat(rows.get(0).get("responses").asLong()).isEqualTo(1);
    assertThat(rows.get(0).get("input_tokens").asLong()).isEqualTo(7);
  }

  @Test
  void usageHasACostColumnAndUnpricedModelsAreNamed() throws IOException {
    Path config = dir.resolve("config");
    assertThat(run("history", "import", "--claude", projects.toString(), "--db", db.toString()).exit()).isZero();
    CliRun byModel = run("history", "usage", "--by", "model", "--json", "--db", db.toString(), "--config-dir",
        config.toString());
    assertThat(byModel.exit()).as(byModel.err()).isZero();
    JsonNode report = JSON.readTree(byModel.out());
    // 7 input × $3 + 11 output × $15 + 100 cache read × $0.30 + 5 cache write × $3.75, per million tokens
    assertThat(report.get("rows").get(0).get("cost_usd").asDouble()).isEqualTo(0.000235);
    assertThat(report.get("total").get("cost_usd").asDouble()).isEqualTo(0.000235);
    assertThat(report.get("prices").get("version").asText()).isEqualTo("0.1.8");
    assertThat(report.get("warnings")).isEmpty();

    CliRun text = run("history", "usage", "--by", "project", "--db", db.toString(), "--config-dir", config.toString());
    assertThat(text.out()).contains("cost_usd").containsPattern("cli\\s+1\\s+7\\s+11\\s+100\\s+5\\s+\\$0\\.0002")
        .contains("prices: @pydantic/genai-prices");

    CliRun show = run("history", "show", SESSION, "--db", db.toString(), "--config-dir", config.toString());
    assertThat(show.out()).contains("- cost: $0.0002; prices: genai-prices 0.1.8");

    // a model the table does not know: its tokens are counted, its cost is named as unpriced, never $0
    Files.createDirectories(config);
    Files.writeString(config.resolve("price-overrides.json"), "{\"models\": {\"claude-sonnet-4-5\": {\"input_mtok\": 1000000,"
        + " \"output_mtok\": 0}}}");
    CliRun overridden = run("history", "usage", "--json", "--db", db.toString(), "--config-dir", config.toString());
    // no cache prices in the override: cache reads and writes are billed as input (7 + 100 + 5 tokens at $1 each)
    assertThat(JSON.readTree(overridden.out()).get("total").get("cost_usd").asDouble()).isEqualTo(112.0);
    Files.writeString(config.resolve("price-overrides.json"), "{broken");
    CliRun broken = run("history", "usage", "--by", "model", "--db", db.toString(), "--config-dir", config.toString());
    assertThat(broken.exit()).isZero();
    assertThat(broken.err()).contains("warning: ignoring the price overrides").contains("not JSON");
    assertThat(broken.out()).contains("$0.0002");

    Path table = dir.resolve("table.json");
    Files.writeString(table, "{\"version\": \"t1\", \"published\": \"2026-01-01\", \"providers\": [{\"id\": \"other\","
        + " \"models\": [{\"id\": \"gpt-x\", \"prices\": {\"input_mtok\": 1, \"output_mtok\": 1}}]}]}");
    Files.delete(config.resolve("price-overrides.json"));
    CliRun update = run("prices", "--config-dir", config.toString(), "update", "--from", table.toString());
    assertThat(update.exit()).as(update.err()).isZero();
    assertThat(update.out()).contains("installed").contains("t1");
    CliRun unpriced = run("history", "usage", "--by", "model", "--db", db.toString(), "--config-dir", config.toString());
    assertThat(unpriced.out()).containsPattern("claude-sonnet-4-5 .* unpriced");
    assertThat(unpriced.err()).contains("warning: no price for claude-sonnet-4-5 (1 responses)")
        .contains("is older than the newest usage (2026-02-01)");
    CliRun badUpdate = run("prices", "--config-dir", config.toString(), "update", "--from", projects.resolve(
        "-home-dev-cli/" + SESSION + ".jsonl").toString());
    assertThat(badUpdate.exit()).isEqualTo(2);
    assertThat(badUpdate.err()).contains("the installed table is unchanged");
    CliRun show2 = run("prices", "--config-dir", config.toString(), "gpt-x", "claude-sonnet-4-5");
    assertThat(show2.out()).contains("price table: ").contains("t1").contains("gpt-x: other/gpt-x  input 1.000")
        .contains("claude-sonnet-4-5: unpriced");
  }

  @Test
  void badInputIsAUsageErrorWithAClearMessage() {
    CliRun missing = run("history", "import", "--claude", dir.resolve("nope").toString(), "--db", db.toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("does not exist");

    CliRun unknown = run("history", "show", "no-such-session", "--db", db.toString());
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("no session no-such-session");

    CliRun badProvider = run("history", "sessions", "--provider", "goose", "--db", db.toString());
    assertThat(badProvider.exit()).isEqualTo(2);
    assertThat(badProvider.err()).contains("unknown provider 'goose'");

    CliRun badGrouping = run("history", "usage", "--by", "weekly", "--db", db.toString());
    assertThat(badGrouping.exit()).isEqualTo(2);
    assertThat(badGrouping.err()).contains("expected day, week, month, session, model, provider, project, block or"
        + " response");
    CliRun badDay = run("history", "usage", "--since", "2026-13-01", "--db", db.toString());
    assertThat(badDay.exit()).isEqualTo(2);
    assertThat(badDay.err()).contains("expected a day as YYYYMMDD or YYYY-MM-DD, not '2026-13-01'");
    CliRun badZone = run("history", "usage", "--timezone", "Mars/Olympus", "--db", db.toString());
    assertThat(badZone.exit()).isEqualTo(2);
    assertThat(badZone.err()).contains("expected a time zone such as Europe/Berlin");
    CliRun limitWithoutBlocks = run("history", "usage", "--token-limit", "max", "--db", db.toString());
    assertThat(limitWithoutBlocks.exit()).isEqualTo(2);
    assertThat(limitWithoutBlocks.err()).contains("--token-limit applies to --by block");

    CliRun punctuation = run("history", "search", "???", "--db", db.toString());
    assertThat(punctuation.exit()).isEqualTo(2);
    assertThat(punctuation.err()).contains("no words to search for");

    CliRun notAFile = run("history", "parse", dir.toString());
    assertThat(notAFile.exit()).isEqualTo(2);
  }

  @Test
  void searchFiltersByProviderProjectAndSessionBeforeTheLimit() throws IOException {
    // a second project whose session says "flamingo" many times and so ranks first
    Path loud = Files.createDirectories(projects.resolve("-home-dev-loud"));
    String other = "7b0c0000-0000-4000-8000-00000000000b";
    Files.writeString(loud.resolve(other + ".jsonl"), "{\"type\":\"user\",\"uuid\":\"u1\","
        + "\"timestamp\":\"2026-02-02T08:00:00Z\",\"cwd\":\"/home/dev/loud\",\"message\":{\"role\":\"user\","
        + "\"content\":\"flamingo flamingo flamingo\"}}\n");
    assertThat(run("history", "import", "--claude", projects.toString(), "--db", db.toString()).exit()).isZero();

    JsonNode top = JSON.readTree(run("history", "search", "flamingo", "--limit", "1", "--json", "--db",
        db.toString()).out());
    assertThat(top).hasSize(1);
    assertThat(top.get(0).get("session_id").asText()).isEqualTo(other);

    for (String[] filter : new String[][] {{"--project", "cli"}, {"--session", "7a0c0000-0000-4000-8000-00000000000a"},
        {"--session", SESSION.substring(0, 8)}}) {
      CliRun r = run("history", "search", "flamingo", "--limit", "1", "--json", filter[0], filter[1], "--db",
          db.toString());
      assertThat(r.exit()).as(r.err()).isZero();
      JsonNode hits = JSON.readTree(r.out());
      assertThat(hits).as(String.join(" ", filter)).hasSize(1);
      assertThat(hits.get(0).get("session_id").asText()).isEqualTo(SESSION);
    }
    CliRun codex = run("history", "search", "flamingo", "--provider", "codex", "--json", "--db", db.toString());
    assertThat(JSON.readTree(codex.out())).isEmpty();
    CliRun badProvider = run("history", "search", "flamingo", "--provider", "goose", "--db", db.toString());
    assertThat(badProvider.exit()).isEqualTo(2);
  }

  @Test
  void everyProviderImportsFromItsOwnOptionAndParsesByName() throws IOException {
    Path agents = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents");
    CliRun imp = run("history", "import", "--gemini", agents.resolve("gemini").toString(), "--opencode",
        agents.resolve("opencode/storage_v2").toString(), "--copilot", agents.resolve("copilot/subdir_v1").toString(),
        "--cursor", agents.resolve("cursor/subagent").toString(), "--db", db.toString(), "--json");
    assertThat(imp.exit()).as(imp.err()).isZero();
    JsonNode report = JSON.readTree(imp.out());
    assertThat(report.get("files").asInt()).isEqualTo(4 + 2 + 1 + 2);
    assertThat(report.get("problems")).isEmpty();
    for (String p : new String[] {"gemini", "opencode", "copilot", "cursor"}) {
      CliRun list = run("history", "sessions", "--provider", p, "--json", "--db", db.toString());
      assertThat(list.exit()).as(list.err()).isZero();
      assertThat(list.out()).as("sessions of %s", p).contains("\"" + p + "\"");
    }
    CliRun parse = run("history", "parse", "--provider", "gemini", agents.resolve("gemini/jsonl_v040.jsonl").toString(),
        "--json");
    assertThat(parse.exit()).as(parse.err()).isZero();
    assertThat(JSON.readTree(parse.out()).get("session").get("source").asText()).isEqualTo("gemini");
  }

  @Test
  void piSessionsImportFromTheirOptionAndParseByNameOrDetection() throws IOException {
    Path pi = dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/pi");
    CliRun imp = run("history", "import", "--pi", pi.toString(), "--db", db.toString(), "--json");
    assertThat(imp.exit()).as(imp.err()).isZero();
    JsonNode report = JSON.readTree(imp.out());
    assertThat(report.get("files").asInt()).isEqualTo(1);
    assertThat(report.get("problems")).isEmpty();
    CliRun list = run("history", "sessions", "--provider", "pi", "--json", "--db", db.toString());
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out()).contains("\"pi\"");
    CliRun missing = run("history", "import", "--pi", pi.resolve("nope").toString(), "--db", db.toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("given with --pi");
    for (String[] args : new String[][] {{"--provider", "pi"}, {}}) {
      List<String> cmd = new java.util.ArrayList<>(List.of("history", "parse"));
      cmd.addAll(List.of(args));
      cmd.addAll(List.of(pi.resolve("small.jsonl").toString(), "--json"));
      CliRun parse = run(cmd.toArray(String[]::new));
      assertThat(parse.exit()).as(parse.err()).isZero();
      JsonNode session = JSON.readTree(parse.out()).get("session");
      assertThat(session.get("source").asText()).isEqualTo("pi");
      assertThat(session.get("message_count").asInt()).isEqualTo(4);
    }
  }

  @Test
  void aiderHistoriesImportFromAFolderAndOneSessionParsesByName(@TempDir Path work) throws IOException {
    Path project = Files.createDirectories(work.resolve("code/api"));
    Path history = project.resolve(".aider.chat.history.md");
    // constructed the way aider writes it (see AiderTest in transcripts), not a recorded session
    Files.writeString(history, String.join("\n", "", "# aider chat started at 2026-03-02 09:15:04", "",
        "> Main model: gpt-4o with diff edit format  ", "", "#### Rename the flag  ", "", "Renamed.", "",
        "> Tokens: 1.5k sent, 20 received. Cost: $0.0040 message, $0.0040 session.  ", "",
        "# aider chat started at 2026-03-02 10:00:00", "", "#### And the docs  ", "", "Done.", ""));
    CliRun imp = run("history", "import", "--aider", work.resolve("code").toString(), "--db", db.toString(), "--json");
    assertThat(imp.exit()).as(imp.err()).isZero();
    assertThat(JSON.readTree(imp.out()).get("files").asInt()).isEqualTo(2);
    CliRun list = run("history", "sessions", "--provider", "aider", "--json", "--db", db.toString());
    assertThat(list.exit()).as(list.err()).isZero();
    JsonNode sessions = JSON.readTree(list.out());
    assertThat(sessions.toString()).contains("\"aider\"").contains("Rename the flag");
    CliRun several = run("history", "parse", history.toString(), "--json");
    assertThat(several.exit()).isNotZero();
    assertThat(several.err()).contains("holds 2 sessions").contains(history + "#aider-");
    String id = several.err().replaceAll("(?s).*" + java.util.regex.Pattern.quote(history.toString()) + "#(aider-[0-9a-fT-]+).*",
        "$1");
    CliRun one = run("history", "parse", "--provider", "aider", history + "#" + id, "--json");
    assertThat(one.exit()).as(one.err()).isZero();
    JsonNode session = JSON.readTree(one.out()).get("session");
    assertThat(session.get("source").asText()).isEqualTo("aider");
    assertThat(session.get("usage").get("input_tokens").asLong()).isEqualTo(1500);
  }
}
