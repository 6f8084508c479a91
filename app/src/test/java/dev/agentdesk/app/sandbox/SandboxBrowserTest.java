package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --browser URL}: Chromium inside the sandbox exposes the page's accessibility tree, so a
 * web page's button and field are element refs like a GTK app's: a click on the button's ref runs
 * its handler (the page retitles itself), a click on the field's ref focuses it and typed text
 * lands there.
 */
class SandboxBrowserTest {
  static final String PAGE = "data:text/html,<title>Start</title>"
      + "<button onclick=\"document.title='Pressed'\">Press me</button><input aria-label=\"Your field\">";

  @Test
  void aWebPagesElementsAreRefsThatClicksAndTypingUse(@TempDir Path dir) throws Exception {
    try (TestServer s = TestServer.start(); SandboxCli cli = new SandboxCli(dir)) {
      Path serveToken = dir.resolve("serve-token");
      Files.writeString(serveToken, s.token.orElseThrow());
      Files.setPosixFilePermissions(serveToken, PosixFilePermissions.fromString("rw-------"));
      JsonNode sb = cli.start("--browser=" + PAGE, "--server", s.base, "--token-file", serveToken.toString());
      assertThat(sb.path("browser").asBoolean()).isTrue();
      String id = sb.path("id").asText();

      String tree = SandboxLifecycleTest.awaitTree(s, id, t -> t.contains("push_button \"Press me\"")
          && t.contains("\"Your field\""));
      assertThat(tree).contains("app: Chromium").contains("document_web");
      String button = SandboxLifecycleTest.ref(tree, "push_button \"Press me\"");
      String field = SandboxLifecycleTest.ref(tree, "entry \\(editable\\) \"Your field\"");

      act(s, id, "{\"verb\":\"click\",\"ref\":\"" + button + "\"}");
      SandboxLifecycleTest.awaitTree(s, id, t -> t.contains("window: \"Pressed - Chromium\""));
      act(s, id, "{\"verb\":\"click\",\"ref\":\"" + field + "\"}");
      act(s, id, "{\"verb\":\"type\",\"text\":\"typed in chromium\"}");
      SandboxLifecycleTest.awaitTree(s, id, t -> t.contains("\"Your field\" Value:\"typed in chromium\""));
    }
  }

  static void act(TestServer s, String id, String body) {
    TestServer.Response r = s.post("/api/sandboxes/" + id + "/act", body);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }
}
