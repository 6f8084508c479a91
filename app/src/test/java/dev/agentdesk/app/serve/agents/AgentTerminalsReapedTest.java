package dev.agentdesk.app.serve.agents;

import static dev.agentdesk.app.serve.agents.AgentsApiTest.assertError;
import static dev.agentdesk.app.serve.agents.AgentsApiTest.await;
import static dev.agentdesk.app.serve.agents.AgentsApiTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A serve that starts and ends agents for days: an ended agent's terminal leaves with its session
 * (discard, forget) or is reaped after the last few, descriptors do not pile up, and the cap
 * counts running terminals only and says so with its own error.
 */
class AgentTerminalsReapedTest {
  private static long openDescriptors() throws Exception {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /** How many PTY masters this process holds open. */
  private static long openPtys() throws Exception {
    long n = 0;
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          n += Files.readSymbolicLink(fd).toString().equals("/dev/ptmx") ? 1 : 0;
        } catch (java.io.IOException gone) {
          // closed while listed
        }
      }
    }
    return n;
  }

  private static Map<String, Object> quickAgent(Path repo) {
    return Map.of("agent", "command", "command", "/bin/sh", "args", List.of("-c", "exit 0"), "repo", repo.toString(),
        "in_place", true);
  }

  @Test
  void seventyAgentsStartedEndedAndDiscardedLeaveNoTerminalBehind(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir))) {
      long before = 0;
      for (int i = 0; i < 70; i++) {
        if (i == 5) {
          before = openDescriptors(); // after the first few: lazily opened files and threads exist
        }
        TestServer.Response started = s.post("/api/agents", json(quickAgent(repo)));
        assertThat(started.status()).as("agent %d: %s", i, started.body()).isEqualTo(201);
        String id = started.json().get("id").asText();
        String terminal = started.json().get("terminal_id").asText();
        await(s, id, j -> j.path("lifecycle").asText().equals("ended"), 20);
        assertThat(s.delete("/api/agents/" + id).status()).as("discard %d", i).isIn(200, 204);
        assertThat(s.get("/api/terminals/" + terminal).status()).as("the discarded agent's terminal is gone")
            .isEqualTo(404);
      }
      assertThat(s.get("/api/terminals").json()).isEmpty();
      assertThat(openDescriptors() - before).as("descriptors after 65 more agents").isLessThan(20);
    }
  }

  @Test
  void endedAgentTerminalsAreReapedBeyondTheLastFew(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir))) {
      List<String> terminals = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        JsonNode a = s.post("/api/agents", json(quickAgent(repo))).json();
        terminals.add(a.get("terminal_id").asText());
        await(s, a.get("id").asText(), j -> j.path("lifecycle").asText().equals("ended"), 20);
      }
      JsonNode listed = s.get("/api/terminals").json();
      assertThat(listed).hasSize(16);
      List<String> ids = new ArrayList<>();
      listed.forEach(t -> ids.add(t.get("id").asText()));
      assertThat(ids).as("the newest ended terminals stay").containsExactlyInAnyOrderElementsOf(terminals.subList(8, 24));
      // The sessions themselves stay, ended and listed.
      assertThat(s.get("/api/agents").json()).hasSize(24);
    }
  }

  @Test
  void theCapCountsRunningTerminalsAndIsItsOwnError(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir))) {
      long ptysBefore = openPtys();
      // Ended terminals first: they must not count.
      TestServer.Response ended = s.post("/api/terminals", "{\"argv\": [\"true\"]}");
      String endedId = ended.json().get("id").asText();
      awaitExited(s, endedId);
      List<String> running = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        TestServer.Response r = s.post("/api/terminals", "{\"argv\": [\"sleep\", \"120\"]}");
        assertThat(r.status()).as("running terminal %d: %s", i, r.body()).isEqualTo(201);
        running.add(r.json().get("id").asText());
      }
      TestServer.Response full = s.post("/api/terminals", "{\"argv\": [\"sleep\", \"120\"]}");
      assertThat(full.status()).isEqualTo(409);
      assertThat(full.json().get("message").asText()).contains("64 terminals running", "stop one first");
      assertError(s.post("/api/agents", json(quickAgent(repo))), 409, "too_many_running");
      assertThat(s.delete("/api/terminals/" + running.remove(0)).status()).isEqualTo(204);
      assertThat(s.post("/api/agents", json(quickAgent(repo))).status()).as("one stopped, one may start").isEqualTo(201);
      for (String id : running) {
        s.delete("/api/terminals/" + id);
      }
      // Every stopped terminal gives its PTY back (the agent's one and the ended one may stay listed).
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (openPtys() > ptysBefore + 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(openPtys()).as("PTY masters after 64 terminals were stopped").isLessThanOrEqualTo(ptysBefore + 2);
    }
  }

  private static void awaitExited(TestServer s, String id) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      if (s.get("/api/terminals/" + id).json().path("exited").asBoolean()) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("terminal " + id + " did not exit within 10 s");
  }
}
