package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history usage} periods, filters and blocks through the CLI, on a real SQLite file. Input
 * tokens only: 1000 at 2026-10-24T22:30Z (Berlin: the 25th, summer time), 2000 at 2026-10-25T23:30Z
 * (Berlin: Monday the 26th, winter time), then 300 and 600 at 20:10 and 21:50 UTC on 2026-12-01 and
 * 5000 at 2026-12-02T01:50Z (the block 20:00–01:00 has ended: a new one at 01:00).
 */
class HistoryUsagePeriodsCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String SONNET = "claude-sonnet-4-5-20250929";

  @TempDir
  Path dir;
  Path db;

  static String line(String uuid, String ts, long input) {
    return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"timestamp\":\"" + ts + "\",\"cwd\":\"/home/dev/shop\","
        + "\"requestId\":\"req-" + uuid + "\",\"message\":{\"id\":\"msg-" + uuid + "\",\"role\":\"assistant\","
        + "\"model\":\"" + SONNET + "\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"usage\":{\"input_tokens\":"
        + input + ",\"output_tokens\":0}}}\n";
  }

  @BeforeEach
  void importFixture() throws IOException {
    Path project = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    Files.writeString(project.resolve("s1.jsonl"), line("r1", "2026-10-24T22:30:00.000Z", 1000)
        + line("r2", "2026-10-25T23:30:00.000Z", 2000) + line("b1", "2026-12-01T20:10:00.000Z", 300)
        + line("b2", "2026-12-01T21:50:00.000Z", 600) + line("b3", "2026-12-02T01:50:00.000Z", 5000));
    db = dir.resolve("h.db");
    CliRun imported = run("history", "import", "--claude", dir.resolve("projects").toString(), "--no-progress",
        "--db", db.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
  }

  private JsonNode json(String... args) throws IOException {
    String[] all = new String[args.length + 5];
    all[0] = "history";
    all[1] = "usage";
    System.arraycopy(args, 0, all, 2, args.length);
    all[args.length + 2] = "--json";
    all[args.length + 3] = "--db";
    all[args.length + 4] = db.toString();
    CliRun r = run(all);
    assertThat(r.exit()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  @Test
  void weeksFollowTheTimeZoneAndTheFiltersKeepTheirTotal() throws IOException {
    JsonNode berlin = json("--by", "week", "--timezone", "Europe/Berlin", "--until", "20261130");
    assertThat(berlin.get("rows").toString()).contains("\"key\":\"2026-W43\",\"responses\":1,\"input_tokens\":1000")
        .contains("\"key\":\"2026-W44\",\"responses\":1,\"input_tokens\":2000");
    JsonNode utc = json("--by", "week", "--timezone", "UTC", "--until", "2026-11-30");
    assertThat(utc.get("rows")).hasSize(1);
    assertThat(utc.get("rows").get(0).get("key").asText()).isEqualTo("2026-W43");
    assertThat(utc.get("total").get("input_tokens").asLong()).isEqualTo(3000);

    JsonNode monday = json("--by", "model", "-z", "Europe/Berlin", "--since", "20261026", "--until", "20261026");
    assertThat(monday.get("total").get("input_tokens").asLong()).isEqualTo(2000);
    assertThat(monday.get("rows").get(0).get("input_tokens").asLong()).isEqualTo(2000);

    JsonNode desc = json("--by", "month", "-z", "UTC", "--order", "desc", "--breakdown");
    assertThat(desc.get("rows").get(0).get("key").asText()).isEqualTo("2026-12");
    assertThat(desc.get("rows").get(0).get("models").get(0).get("model").asText()).isEqualTo(SONNET);
    assertThat(desc.get("rows").get(0).get("models").get(0).get("input_tokens").asLong()).isEqualTo(5900);

    CliRun table = run("history", "usage", "--by", "day", "-z", "UTC", "--breakdown", "--db", db.toString());
    assertThat(table.out()).contains("2026-10-24").contains("  " + SONNET);
  }

  @Test
  void blocksShowTheActiveOneWithItsBurnRateAndTheLimit() throws IOException {
    // at 22:10 UTC on the 1st: the block 20:00–01:00 is active, 900 tokens over the 120 min since 20:10
    JsonNode before = json("--by", "block", "-z", "UTC", "--since", "20261201", "--until", "2026-12-01", "--now", "2026-12-01T22:10:00Z",
        "--token-limit", "1000");
    assertThat(before.get("blocks")).hasSize(1);
    JsonNode active = before.get("blocks").get(0);
    assertThat(active.get("start").asText()).isEqualTo("2026-12-01T20:00:00Z");
    assertThat(active.get("active").asBoolean()).isTrue();
    assertThat(active.get("elapsed_minutes").asLong()).isEqualTo(130);
    assertThat(active.get("remaining_minutes").asLong()).isEqualTo(170);
    assertThat(active.get("tokens_per_minute").asDouble()).isEqualTo(7.5);
    assertThat(active.get("projected_tokens").asLong()).isEqualTo(900 + Math.round(7.5 * 170));
    assertThat(active.get("over_limit").asBoolean()).isTrue(); // projected 2175 > 1000

    JsonNode all = json("--by", "block", "-z", "UTC", "--since", "20261201", "--now", "2026-12-02T02:00:00Z",
        "--token-limit", "max");
    assertThat(all.get("blocks")).extracting(b -> b.get("start").asText())
        .containsExactly("2026-12-01T20:00:00Z", "2026-12-02T01:00:00Z");
    assertThat(all.get("token_limit").asLong()).isEqualTo(900); // the largest past block
    assertThat(all.get("total").get("input_tokens").asLong()).isEqualTo(5900);

    CliRun text = run("history", "usage", "--by", "block", "-z", "UTC", "--since", "20261201", "--now",
        "2026-12-02T02:00:00Z", "--db", db.toString());
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).contains("2026-12-01 20:00-01:00").contains("2026-12-02 01:00-06:00")
        .contains("(active)").contains("active block: 1h00m elapsed, 4h00m left (ends 06:00)");
    // without a terminal, --live prints once and ends
    CliRun live = run("history", "usage", "--by", "block", "--live", "--db", db.toString());
    assertThat(live.exit()).as(live.err()).isZero();
    assertThat(live.out()).contains("block (");
  }
}
