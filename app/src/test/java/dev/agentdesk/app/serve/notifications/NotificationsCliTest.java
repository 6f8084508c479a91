package dev.agentdesk.app.serve.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.agents.AgentsApiTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notification options of {@code serve} and {@code agent start --auto-resume}. */
class NotificationsCliTest {
  @Test
  void badWebhookOptionsAreUsageErrorsBeforeAnythingStarts() {
    CliRun format = CliRun.run("serve", "--no-token", "--port", "0", "--webhook", "https://ntfy.sh/x",
        "--webhook-format", "teams");
    assertThat(format.exit()).isEqualTo(2);
    assertThat(format.err()).contains("unknown webhook format 'teams'; use ntfy, slack, discord or json");
    CliRun url = CliRun.run("serve", "--no-token", "--port", "0", "--webhook", "ftp://example.com/x");
    assertThat(url.exit()).isEqualTo(2);
    assertThat(url.err()).contains("a webhook is an http:// or https:// URL");
    CliRun topic = CliRun.run("serve", "--no-token", "--port", "0", "--webhook", "https://ntfy.sh/",
        "--webhook-format", "ntfy");
    assertThat(topic.exit()).isEqualTo(2);
    assertThat(topic.err()).contains("names no topic");
  }

  @Test
  void agentStartAutoResumeSwitchesItOnForThatSession(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir))) {
      Path tokenFile = dir.resolve("token");
      Files.createFile(tokenFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(tokenFile, s.token.orElseThrow() + "\n");
      CliRun start = CliRun.run("agent", "start", "--agent", "claude", "--repo", repo.toString(), "--prompt", "Add a retry",
          "--auto-resume", "--json", "--server", s.base, "--token-file", tokenFile.toString());
      assertThat(start.exit()).as(start.err()).isZero();
      String id = Json.MAPPER.readTree(start.out()).path("id").asText();
      var ar = s.get("/api/auto-resume/" + id).json();
      assertThat(ar.path("enabled").asBoolean()).isTrue();
      assertThat(ar.path("override").asBoolean()).isTrue();
      assertThat(ar.path("all").asBoolean()).isFalse();
    }
  }
}
