package dev.agentdesk.app.history;

import static dev.agentdesk.app.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The history CLI against a team's PostgreSQL (a real private server): the same commands, --db-url instead of --db. */
@ExtendWith(PostgresExtension.class)
class HistoryPostgresCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everySubcommandWorksOnADatabaseUrl(PostgresServer pg, @TempDir Path dir) throws IOException {
    Path projects = dir.resolve("projects");
    Path file = HistoryCliTest.transcript(projects);
    String url = pg.createDatabase();

    CliRun imp = run("history", "import", "--claude", projects.toString(), "--db-url", url, "--json");
    assertThat(imp.exit()).as(imp.err()).isZero();
    assertThat(JSON.readTree(imp.out()).get("files").asInt()).isEqualTo(1);
    assertThat(imp.out() + imp.err()).doesNotContain(PostgresServer.PASSWORD);

    // --db-url before or after the arguments, on history or on the subcommand
    JsonNode list = JSON.readTree(run("history", "--db-url", url, "sessions", "--json").out());
    assertThat(list.get("sessions").get(0).get("id").asText()).isEqualTo(HistoryCliTest.SESSION);
    CliRun show = run("history", "show", HistoryCliTest.SESSION, "--json", "--db-url", url);
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out()).isEqualTo(run("history", "parse", file.toString(), "--json").out());
    JsonNode hits = JSON.readTree(run("history", "search", "flamingo", "--json", "--db-url", url).out());
    assertThat(hits.get(0).get("session_id").asText()).isEqualTo(HistoryCliTest.SESSION);
    JsonNode usage = JSON.readTree(run("history", "usage", "--by", "model", "--json", "--db-url", url).out());
    assertThat(usage.toString()).contains("claude-sonnet-4-5").contains("\"output_tokens\":11");
    // the per-response path (another zone, blocks) reads the timestamps from PostgreSQL too
    JsonNode weeks = JSON.readTree(run("history", "usage", "--by", "week", "-z", "Europe/Berlin", "--json",
        "--db-url", url).out());
    assertThat(weeks.get("rows").get(0).get("key").asText()).matches("\\d{4}-W\\d{2}");
    assertThat(weeks.get("total").get("output_tokens").asLong()).isEqualTo(usage.get("total").get("output_tokens")
        .asLong());
    JsonNode blocks = JSON.readTree(run("history", "usage", "--by", "block", "--json", "--db-url", url).out());
    assertThat(blocks.get("blocks")).isNotEmpty();
    assertThat(blocks.get("total").get("output_tokens").asLong()).isEqualTo(usage.get("total").get("output_tokens")
        .asLong());
    // a subcommand's own --db wins over the parent's --db-url: this file has nothing
    Path empty = dir.resolve("empty.db");
    JsonNode none = JSON.readTree(run("history", "--db-url", url, "sessions", "--json", "--db", empty.toString())
        .out());
    assertThat(none.get("sessions")).isEmpty();
    assertThat(Files.exists(empty)).isTrue();
  }

  @Test
  void badDatabaseChoicesAreClearErrorsWithoutPasswords(@TempDir Path dir) {
    CliRun both = run("history", "sessions", "--db", dir.resolve("a.db").toString(), "--db-url", "jdbc:sqlite:b.db");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");

    CliRun notJdbc = run("history", "sessions", "--db-url", "history.db");
    assertThat(notJdbc.exit()).isEqualTo(2);
    assertThat(notJdbc.err()).contains("starts with 'jdbc:'").contains("--db FILE");

    CliRun unreachable = run("history", "sessions", "--db-url",
        "jdbc:postgresql://127.0.0.1:1/x?user=a&password=hunter2");
    assertThat(unreachable.exit()).isNotZero();
    assertThat(unreachable.err()).isNotBlank().doesNotContain("hunter2").doesNotContain("\tat ");
  }
}
