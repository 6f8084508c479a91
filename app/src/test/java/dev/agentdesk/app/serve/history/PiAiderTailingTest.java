package dev.agentdesk.app.serve.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} imports and tails pi sessions and Aider histories (a searched folder and a file
 * named by itself), lists them under their providers, and serves each detail equal to a fresh parse.
 * The files are written here the way the agents write them (constructed, not recorded).
 */
class PiAiderTailingTest {
  private static final String PI_HEADER = "{\"type\":\"session\",\"version\":3,\"id\":\"p1\","
      + "\"timestamp\":\"2026-05-12T01:00:00.000Z\",\"cwd\":\"/w/api\"}\n";

  private static String piUser(String id, String parent, String text) {
    return "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":" + (parent == null ? "null" : "\"" + parent + "\"")
        + ",\"timestamp\":\"2026-05-12T01:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
        + "\"text\":\"" + text + "\"}],\"timestamp\":1}}\n";
  }

  @Test
  void piAndAiderFilesAreImportedListedAndTailed(@TempDir Path dir) throws Exception {
    Path pi = Files.createDirectories(dir.resolve("pi/sessions/--w-api--")).resolve("2026-05-12T01-00-00-000Z_p1.jsonl");
    Files.writeString(pi, PI_HEADER + piUser("u1", null, "First pi question"));
    Path project = Files.createDirectories(dir.resolve("code/api"));
    Path aider = project.resolve(".aider.chat.history.md");
    Files.writeString(aider, "\n# aider chat started at 2026-03-02 09:15:04\n\n#### First aider question  \n\nAnswer one.\n");
    Path named = dir.resolve("elsewhere.md");
    Files.writeString(named, "\n# aider chat started at 2026-03-03 10:00:00\n\n#### Named file question  \n");
    ServeConfig config = new ServeConfig("127.0.0.1", 0, TestServer.newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db/history.db")),
        List.of(new Importer.Root(Provider.PI, dir.resolve("pi")), new Importer.Root(Provider.AIDER, dir.resolve("code")),
            new Importer.Root(Provider.AIDER, named)), true, dir.resolve("data"));
    try (TestServer s = TestServer.start(config, dir)) {
      HistoryApiTest.awaitImport(s);
      JsonNode roots = s.get("/api/history/import").json().get("roots");
      assertThat(roots).extracting(r -> r.get("exists").asBoolean()).containsOnly(true);
      assertThat(s.get("/api/history/facets").json().get("providers")).extracting(JsonNode::asText)
          .containsExactlyInAnyOrder("pi", "aider");
      assertThat(s.get("/api/history/sessions?provider=pi").json().get("total").asLong()).isEqualTo(1);
      assertThat(s.get("/api/history/sessions?provider=aider").json().get("total").asLong()).isEqualTo(2);
      String aiderId = s.get("/api/history/sessions?provider=aider&project=api").json().get("items").get(0).get("id")
          .asText();

      Files.writeString(pi, piUser("u2", "u1", "Second pi question"), StandardOpenOption.APPEND);
      Files.writeString(aider, "\n#### Second aider question  \n\nAnswer two.\n", StandardOpenOption.APPEND);
      JsonNode piDetail = await(s, "/api/history/sessions/p1", d -> d.toString().contains("Second pi question"));
      JsonNode aiderDetail = await(s, "/api/history/sessions/" + aiderId,
          d -> d.toString().contains("Answer two."));
      assertThat(piDetail.toString()).isEqualTo(DetailJson.write(Transcripts.parse(Provider.PI, pi).detail()));
      assertThat(aiderDetail.toString()).isEqualTo(DetailJson.write(
          Transcripts.parse(Provider.AIDER, Path.of(aider + "#" + aiderId)).detail()));
      assertThat(aiderDetail.get("session").get("message_count").asInt()).isEqualTo(4);
      JsonNode hits = s.get("/api/history/search?q=aider&provider=aider").json().get("hits");
      assertThat(hits).isNotEmpty().allSatisfy(h -> assertThat(h.get("source").asText()).isEqualTo("aider"));
    }
  }

  private static JsonNode await(TestServer s, String path, Predicate<JsonNode> done) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
    JsonNode last = null;
    while (Instant.now().isBefore(deadline)) {
      var r = s.get(path);
      if (r.status() == 200) {
        last = r.json();
        if (done.test(last)) {
          return last;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError(path + " did not change within 40 s; last: " + last);
  }
}
