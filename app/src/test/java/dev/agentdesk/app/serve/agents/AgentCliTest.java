package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdesk agent …} against a real server, with the token read from a token file as the
 * CLI does on the server's machine: start, list, show, diff, send, merge, discard, each in the
 * human form and with {@code --json}; server errors come back as one line and exit 2.
 */
class AgentCliTest {

  @Test
  void everySubcommandTalksToTheServerWithItsToken(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    Map<String, String> env = AgentsApiTest.env(dir);
    try (TestServer s = TestServer.withAgents(dir, env)) {
      Path tokenFile = dir.resolve("token");
      Files.createFile(tokenFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(tokenFile, s.token.orElseThrow() + "\n");
      String[] server = {"--server", s.base, "--token-file", tokenFile.toString()};

      CliRun start = cli(server, "agent", "start", "--agent", "claude", "--repo", repo.toString(), "--worktree", "cli",
          "--prompt", "Add a retry", "--json");
      assertThat(start.exit()).as(start.err()).isZero();
      JsonNode started = Json.MAPPER.readTree(start.out());
      String id = started.get("id").asText();
      assertThat(started.get("branch").asText()).isEqualTo("agentdesk/cli");

      AgentsApiTest.await(s, id, j -> j.path("status").path("awaiting_input").asBoolean()
          && j.path("status").path("choice").path("options").size() == 2, 30);
      CliRun show = cli(server, "agent", "show", id);
      assertThat(show.out()).contains(id, "awaiting_input", "Which database should I use?", "1. SQLite", "2. PostgreSQL");
      assertThat(cli(server, "agent", "list").out()).contains(id, "claude", "agentdesk/cli");

      CliRun diff = cli(server, "agent", "diff", id);
      assertThat(diff.out()).contains("added", "+1", "agent.txt", "+edited by claude: Add a retry");

      assertThat(cli(server, "agent", "send", id, "--answer", "1").out()).contains("sent");
      AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText().equals("idle"), 30);

      CliRun merge = cli(server, "agent", "merge", id);
      assertThat(merge.exit()).as(merge.err()).isZero();
      assertThat(merge.out()).contains("merged into main (fast-forward");

      CliRun refuse = cli(server, "agent", "discard", id);
      assertThat(refuse.exit()).isEqualTo(2);
      assertThat(refuse.err()).contains("--yes");
      assertThat(cli(server, "agent", "discard", id, "--yes").out()).contains("discarded " + id);

      CliRun missing = cli(server, "agent", "show", id);
      assertThat(missing.exit()).isEqualTo(2);
      assertThat(missing.err()).contains(id);

      CliRun notRepo = cli(server, "agent", "start", "--agent", "claude", "--repo", dir.resolve("home").toString());
      assertThat(notRepo.exit()).isEqualTo(2);
      assertThat(notRepo.err()).containsIgnoringCase("git");
    }
  }

  @Test
  void aMissingTokenFileOrServerIsAClearError(@TempDir Path dir) {
    CliRun noFile = CliRun.run("agent", "list", "--server", "http://127.0.0.1:1/", "--token-file",
        dir.resolve("nope").toString());
    assertThat(noFile.exit()).isEqualTo(2);
    assertThat(noFile.err()).contains(dir.resolve("nope").toString());
  }

  private static CliRun cli(String[] server, String... args) {
    String[] all = new String[args.length + server.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(server, 0, all, args.length, server.length);
    return CliRun.run(all);
  }
}
