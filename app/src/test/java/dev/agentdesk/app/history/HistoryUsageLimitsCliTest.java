package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.testkit.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code history usage --limits} on a real SQLite file, from real Codex rollouts of the shared corpus. */
class HistoryUsageLimitsCliTest {
  static final String ROLLOUT = "2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";

  @Test
  void eachWindowHowFullHowLongAndWhenItResets(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("codex").resolve(ROLLOUT);
    Files.createDirectories(target.getParent());
    Files.copy(SharedCorpus.require("corpus/transcripts-peer/home/.codex/sessions/" + ROLLOUT), target);
    String db = dir.resolve("h.db").toString();
    Path claude = Files.createDirectories(dir.resolve("claude"));
    assertThat(run("history", "usage", "--limits", "--db", db).out()).startsWith("no usage limits known yet");
    CliRun imported = run("history", "import", "--codex", dir.resolve("codex").toString(), "--claude",
        claude.toString(), "--no-progress", "--db", db);
    assertThat(imported.exit()).as(imported.err()).isZero();

    // 12:30 UTC on the 24th: the 5-hour window resets at 13:16:59 (in 46 min), the week on 1 March
    CliRun table = run("history", "usage", "--limits", "--timezone", "Europe/Berlin", "--now",
        "2026-02-24T12:30:00Z", "--db", db);
    assertThat(table.exit()).as(table.err()).isZero();
    assertThat(table.out().lines().toList()).containsExactly(
        "provider   window               used   length  resets (Europe/Berlin)             reported          from",
        "codex      primary               25%       5h  2026-02-24 14:16 (in 0h46m)        2026-02-24 13:09  transcript",
        "codex      secondary             20%       7d  2026-03-01 10:01 (in 4d20h)        2026-02-24 13:09  transcript");

    JsonNode json = new ObjectMapper().readTree(run("history", "usage", "--limits", "--json", "--now",
        "2026-02-24T14:00:00Z", "--provider", "codex", "--db", db).out());
    assertThat(json.get("limits")).hasSize(2);
    assertThat(json.get("limits").get(0).get("has_reset").asBoolean()).isTrue();
    assertThat(json.get("limits").get(0).get("minutes_to_reset").isNull()).isTrue();
    assertThat(json.get("limits").get(1).get("minutes_to_reset").asLong()).isEqualTo(6901);
    assertThat(json.get("now").asText()).isEqualTo("2026-02-24T14:00:00Z");
    assertThat(new ObjectMapper().readTree(run("history", "usage", "--limits", "--json", "--provider", "claude",
        "--db", db).out()).get("limits")).isEmpty();

    CliRun bad = run("history", "usage", "--limits", "--breakdown", "--db", db);
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--limits shows the usage windows alone");
  }
}
