package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
 * {@code history usage --mode auto|calculate|display} on a hand-computed fixture, real SQLite file.
 * Claude Sonnet 4.5 input at $3 per million tokens:
 *
 * <ul>
 *   <li>session s1 (Claude Code's cost-state: $0.05 in all, $0.04 Sonnet, $0.01 Haiku, which wrote no
 *       response): r1 2026-11-30T10:00Z 1000 tokens (calculated $0.003), r2 2026-12-01T10:00Z 3000
 *       tokens ($0.009). Sonnet's $0.04 goes 1:3 by calculated cost: r1 $0.01, r2 $0.03; the other
 *       $0.01 goes over the whole session the same way: r1 $0.0025, r2 $0.0075. So r1 $0.0125, r2 $0.0375.
 *   <li>session s2 (nothing recorded): r3 2026-12-01T11:00Z 2000 tokens ($0.006).
 * </ul>
 */
class HistoryUsageModeCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;
  Path db;

  @BeforeEach
  void importFixture() throws IOException {
    Path project = Files.createDirectories(dir.resolve("projects/-home-dev-shop"));
    String s = HistoryUsagePeriodsCliTest.SONNET;
    Files.writeString(project.resolve("s1.jsonl"), HistoryUsagePeriodsCliTest.line("r1", "2026-11-30T10:00:00.000Z", 1000)
        + HistoryUsagePeriodsCliTest.line("r2", "2026-12-01T10:00:00.000Z", 3000)
        + "{\"type\":\"cost-state\",\"sessionId\":\"s1\",\"totalCostUSD\":0.05,\"hasUnknownModelCost\":false,"
        + "\"modelUsage\":{\"" + s + "\":{\"inputTokens\":4000,\"outputTokens\":0,\"costUSD\":0.04},"
        + "\"claude-haiku-4-5-20251001\":{\"inputTokens\":100,\"outputTokens\":10,\"costUSD\":0.01}}}\n");
    Files.writeString(project.resolve("s2.jsonl"), HistoryUsagePeriodsCliTest.line("r3", "2026-12-01T11:00:00.000Z", 2000));
    db = dir.resolve("h.db");
    CliRun imported = run("history", "import", "--claude", dir.resolve("projects").toString(), "--no-progress",
        "--db", db.toString());
    assertThat(imported.exit()).as(imported.err()).isZero();
  }

  private JsonNode json(String... args) throws IOException {
    String[] all = new String[args.length + 7];
    all[0] = "history";
    all[1] = "usage";
    System.arraycopy(args, 0, all, 2, args.length);
    all[args.length + 2] = "--json";
    all[args.length + 3] = "--timezone";
    all[args.length + 4] = "UTC";
    all[args.length + 5] = "--db";
    all[args.length + 6] = db.toString();
    CliRun r = run(all);
    assertThat(r.exit()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  private static void figures(JsonNode row, double cost, double calculated, Double recorded) {
    assertThat(row.get("cost_usd").asDouble()).as("cost_usd of %s", row).isCloseTo(cost, within(1e-9));
    assertThat(row.get("calculated_cost_usd").asDouble()).as("calculated of %s", row).isCloseTo(calculated, within(1e-9));
    if (recorded == null) {
      assertThat(row.get("recorded_cost_usd").isNull()).as("recorded of %s", row).isTrue();
      assertThat(row.get("cost_difference_usd").isNull()).isTrue();
    } else {
      assertThat(row.get("recorded_cost_usd").asDouble()).as("recorded of %s", row).isCloseTo(recorded, within(1e-9));
    }
  }

  @Test
  void autoTakesTheRecordedCostWhereThereIsOneOnEveryGrouping() throws IOException {
    JsonNode day = json("--by", "day");
    assertThat(day.get("mode").asText()).isEqualTo("auto");
    figures(day.get("rows").get(0), 0.0125, 0.003, 0.0125);
    assertThat(day.get("rows").get(0).get("cost_difference_usd").asDouble()).isCloseTo(0.0095, within(1e-9));
    figures(day.get("rows").get(1), 0.0375 + 0.006, 0.015, 0.0375);
    // the difference compares the same responses: r2's recorded $0.0375 with its calculated $0.009
    assertThat(day.get("rows").get(1).get("cost_difference_usd").asDouble()).isCloseTo(0.0285, within(1e-9));
    figures(day.get("total"), 0.056, 0.018, 0.05);
    assertThat(day.get("total").get("cost_difference_usd").asDouble()).isCloseTo(0.038, within(1e-9));

    JsonNode session = json("--by", "session");
    figures(session.get("rows").get(0), 0.05, 0.012, 0.05);
    figures(session.get("rows").get(1), 0.006, 0.006, null);
    for (String by : new String[] {"week", "month", "model", "provider", "project"}) {
      figures(json("--by", by).get("total"), 0.056, 0.018, 0.05);
    }
    // the filter keeps r2 and r3 with their shares (r1 is weighed, not shown): a total is its rows' sum
    JsonNode since = json("--by", "day", "--since", "20261201");
    assertThat(since.get("rows")).hasSize(1);
    figures(since.get("total"), 0.0435, 0.015, 0.0375);
    // blocks: r1 alone, then r2 and r3 in one block from 10:00
    JsonNode blocks = json("--by", "block", "--now", "2026-12-01T12:00:00Z");
    figures(blocks.get("rows").get(1), 0.0435, 0.015, 0.0375);
    assertThat(blocks.get("blocks").get(1).get("cost_usd").asDouble()).isCloseTo(0.0435, within(1e-9));
    JsonNode breakdown = json("--by", "day", "--breakdown");
    figures(breakdown.get("rows").get(1).get("models").get(0), 0.0435, 0.015, 0.0375);
  }

  @Test
  void calculateAndDisplay() throws IOException {
    JsonNode calc = json("--by", "day", "--mode", "calculate");
    assertThat(calc.get("mode").asText()).isEqualTo("calculate");
    figures(calc.get("rows").get(0), 0.003, 0.003, 0.0125);
    figures(calc.get("rows").get(1), 0.015, 0.015, 0.0375);
    figures(calc.get("total"), 0.018, 0.018, 0.05);
    JsonNode display = json("--by", "session", "--mode", "display");
    figures(display.get("rows").get(0), 0.05, 0.012, 0.05);
    figures(display.get("rows").get(1), 0, 0.006, null);
    figures(display.get("total"), 0.05, 0.018, 0.05);
  }

  @Test
  void theTableShowsBothAndTheDifferenceAndABadModeIsAUserError() {
    CliRun table = run("history", "usage", "--by", "session", "--timezone", "UTC", "--db", db.toString());
    assertThat(table.exit()).as(table.err()).isZero();
    assertThat(table.out()).contains("cost_usd     calculated   recorded_usd   difference")
        .containsPattern("\ns1 +1?2 .* \\$0\\.0500 +\\$0\\.0120 +\\$0\\.0500 +\\+\\$0\\.0380\n")
        .containsPattern("\ns2 +1 .* \\$0\\.0060 +\\$0\\.0060 +- +-\n")
        .contains("cost_usd: the agent's recorded cost where it recorded one, else calculated (--mode auto)");
    CliRun bad = run("history", "usage", "--mode", "guess", "--db", db.toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("the cost mode is auto, calculate or display, not 'guess'");
  }
}
