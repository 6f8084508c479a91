package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/agents} on a real server: a scripted Claude stand-in (it takes {@code --session-id},
 * draws a Claude-like screen, writes real-format transcript lines under HOME, edits a file and
 * asks a question with a choice menu) runs in a real git worktree in a real PTY; the transcript is
 * linked and equals the History page's detail; the diff, the answer, the merge and the discard go
 * through real git; bad input gets typed errors and leaves nothing behind.
 */
public class AgentsApiTest {
  static final Path ROOT = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
  public static final Path STANDINS = ROOT.resolve("agents/src/test/resources/standins");

  @Test
  void startLinkDiffAnswerMergeAndDiscard(@TempDir Path dir) throws Exception {
    Path repo = gitRepo(dir.resolve("repo"));
    Map<String, String> env = env(dir);
    try (TestServer s = TestServer.withAgents(dir, env)) {
      TestServer.Response started = s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(),
          "worktree", "retry", "prompt", "Add a retry")));
      assertThat(started.status()).as(started.body()).isEqualTo(201);
      JsonNode a = started.json();
      String id = a.get("id").asText();
      assertThat(a.get("agent").asText()).isEqualTo("claude");
      assertThat(a.get("branch").asText()).isEqualTo("agentdesk/retry");
      assertThat(a.get("repo").asText()).isEqualTo(repo.toString());
      Path worktree = Path.of(a.get("worktree").asText());
      assertThat(worktree).isDirectory().isNotEqualTo(repo);
      assertThat(a.get("cost_usd").isNull()).isTrue();
      String terminal = a.get("terminal_id").asText();
      assertThat(s.get("/api/terminals/" + terminal).status()).as("the agent runs in one of the server's terminals")
          .isEqualTo(200);

      // The stand-in asks with a menu; the transcript confirms it and the link is found by the session id.
      // (The transcript's pending question can say "awaiting" before the parser has read the menu
      // off the screen: wait for both.)
      JsonNode waiting = await(s, id, j -> j.path("status").path("awaiting_input").asBoolean()
          && !j.path("transcript").isNull() && j.path("status").path("choice").isObject(), 30);
      assertThat(waiting.path("transcript").path("provider").asText()).isEqualTo("claude");
      assertThat(waiting.path("status").path("choice").path("options")).hasSize(2);
      assertThat(s.get("/api/agents").json().get(0).get("id").asText()).as("awaiting input comes first").isEqualTo(id);

      TestServer.Response diff = s.get("/api/agents/" + id + "/diff");
      assertThat(diff.status()).isEqualTo(200);
      JsonNode file = diff.json().get("files").get(0);
      assertThat(file.get("path").asText()).isEqualTo("agent.txt");
      assertThat(file.get("status").asText()).isEqualTo("added");
      assertThat(file.get("added").asInt()).isEqualTo(1);
      assertThat(diff.json().get("patch").asText()).contains("+edited by claude: Add a retry");
      assertThat(Files.exists(repo.resolve("agent.txt"))).as("the user's checkout is untouched").isFalse();

      assertThat(s.post("/api/agents/" + id + "/input", "{\"answer\":2}").status()).isEqualTo(204);
      await(s, id, j -> !j.path("status").path("awaiting_input").asBoolean()
          && j.path("status").path("phase").asText().equals("idle"), 30);

      // The transcript endpoint is the History detail of the same file, byte for byte.
      String sessionId = waiting.path("transcript").path("session_id").asText();
      String transcript = awaitBody(s, "/api/agents/" + id + "/transcript", b -> b.contains("with PostgreSQL"), 10);
      String history = awaitBody(s, "/api/history/sessions/" + sessionId, b -> b.contains("with PostgreSQL"), 20);
      assertThat(transcript).isEqualTo(history);

      // A line the agent writes reaches /ws/events as an agent event whose transcript_bytes_read is the
      // file's new length: that is what makes the session page refetch its transcript at once.
      Path transcriptFile = Path.of(waiting.path("transcript").path("path").asText());
      try (var events = s.ws("/ws/events")) {
        Files.writeString(transcriptFile, "{\"type\":\"user\",\"sessionId\":\"" + sessionId + "\",\"uuid\":\"pushed-1\","
            + "\"timestamp\":\"2026-12-01T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"pushed\"}}\n",
            java.nio.file.StandardOpenOption.APPEND);
        long length = Files.size(transcriptFile);
        events.await(m -> m.path("type").asText().equals("agent") && m.path("agent").path("id").asText().equals(id)
            && m.path("agent").path("transcript_bytes_read").asLong() == length, 10);
      }

      // Cost comes from the history's price table: the stand-in's model is priced, so it is a number
      // and equals the usage report of the same session.
      // (The agent JSON re-reads the cost at most every 5 s, so it catches up with the report.)
      java.util.function.DoubleSupplier reported = () -> s.get("/api/history/usage?by=session&session=" + sessionId).json()
          .path("total").path("cost_usd").asDouble();
      JsonNode priced = await(s, id, j -> j.path("cost_usd").isNumber()
          && j.path("cost_usd").asDouble() == reported.getAsDouble(), 30);
      assertThat(priced.get("cost_usd").asDouble()).isPositive();

      TestServer.Response merged = s.post("/api/agents/" + id + "/merge", "");
      assertThat(merged.status()).as(merged.body()).isEqualTo(200);
      assertThat(merged.json().get("kind").asText()).isEqualTo("fast_forward");
      assertThat(Files.readString(repo.resolve("agent.txt"))).contains("edited by claude: Add a retry");

      assertThat(s.delete("/api/agents/" + id + "?discard=true").status()).isEqualTo(204);
      assertThat(worktree).doesNotExist();
      assertThat(git(repo, "branch", "--list", "agentdesk/retry")).isBlank();
      assertThat(s.get("/api/agents/" + id).status()).isEqualTo(404);
    }
  }

  @Test
  void theLinkSurvivesARestartAndTheSessionComesBackResumable(@TempDir Path dir) throws Exception {
    Path repo = gitRepo(dir.resolve("repo"));
    Map<String, String> env = env(dir);
    env.put("STANDIN_NO_QUESTION", "1");
    String id;
    JsonNode before;
    try (TestServer s = TestServer.withAgents(dir, env)) {
      id = s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(), "prompt", "hello"))).json()
          .get("id").asText();
      before = await(s, id, j -> !j.path("transcript").isNull(), 30);
    }
    try (TestServer s = TestServer.withAgents(dir, env)) {
      JsonNode after = s.get("/api/agents/" + id).json();
      assertThat(after.get("transcript")).isEqualTo(before.get("transcript"));
      assertThat(after.get("lifecycle").asText()).isEqualTo("ended");
      assertThat(after.get("worktree")).isEqualTo(before.get("worktree"));
      TestServer.Response resumed = s.post("/api/agents/" + id + "/resume", "");
      assertThat(resumed.status()).as(resumed.body()).isEqualTo(200);
      assertThat(resumed.json().get("argv").toString()).contains("--resume", before.path("transcript").path("session_id").asText());
      await(s, id, j -> j.path("lifecycle").asText().equals("running"), 10);
    }
  }

  @Test
  void badInputGetsTypedErrorsAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
    Path repo = gitRepo(dir.resolve("repo"));
    Path notRepo = Files.createDirectories(dir.resolve("plain"));
    try (TestServer s = TestServer.withAgents(dir, env(dir))) {
      assertError(s.post("/api/agents", json(Map.of("agent", "claude", "repo", notRepo.toString()))), 400,
          "not_a_repository");
      assertError(s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(), "base", "no-such-ref"))),
          400, "unknown_ref");
      assertError(s.post("/api/agents", json(Map.of("agent", "teleporter", "repo", repo.toString()))), 400,
          "unknown_agent");
      assertError(s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(),
          "command", dir.resolve("missing-cli").toString()))), 400, "command_not_found");
      assertThat(s.post("/api/agents", json(Map.of("agent", "claude", "repo", "relative/path"))).status()).isEqualTo(400);
      assertThat(s.post("/api/agents", "{not json").status()).isEqualTo(400);
      assertThat(git(repo, "branch", "--list", "agentdesk/*")).as("no orphan branch after failed starts").isBlank();

      String id = s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(), "worktree", "twice")))
          .json().get("id").asText();
      assertError(s.post("/api/agents", json(Map.of("agent", "claude", "repo", repo.toString(), "worktree", "twice"))),
          409, "worktree_exists");
      assertThat(s.post("/api/agents/" + id + "/input", "{\"text\":\"a\",\"key\":\"enter\"}").status()).isEqualTo(400);
      assertError(s.get("/api/agents/nope"), 404, "unknown_session");
      assertError(s.post("/api/agents/" + id + "/resume", ""), 409, "wrong_state");
    }
    try (var listing = Files.list(dir.resolve("data/worktrees/repo"))) {
      assertThat(listing.map(p -> p.getFileName().toString()).toList()).containsExactly("twice");
    }
  }

  static void assertError(TestServer.Response r, int status, String reason) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.json().path("reason").asText()).as(r.body()).isEqualTo(reason);
    assertThat(r.json().path("message").asText()).isNotBlank();
  }

  /** PATH with the stand-ins first, a fresh HOME. */
  public static Map<String, String> env(Path dir) throws IOException {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
    env.remove("CLAUDE_CONFIG_DIR");
    env.remove("CODEX_HOME");
    env.remove("XDG_DATA_HOME");
    env.put("PATH", STANDINS + ":" + System.getenv("PATH"));
    return env;
  }

  public static Path gitRepo(Path repo) throws Exception {
    Files.createDirectories(repo);
    git(repo, "init", "-q", "-b", "main");
    Files.writeString(repo.resolve("README.md"), "hello\n");
    git(repo, "add", "README.md");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first");
    git(repo, "config", "user.name", "t");
    git(repo, "config", "user.email", "t@example.com");
    return repo;
  }

  static String git(Path repo, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + out).isZero();
    return out.trim();
  }

  static String json(Map<String, Object> body) {
    try {
      return dev.agentdesk.app.serve.Json.MAPPER.writeValueAsString(body);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static JsonNode await(TestServer s, String id, Predicate<JsonNode> cond, int seconds) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
    JsonNode last = null;
    while (Instant.now().isBefore(deadline)) {
      last = s.get("/api/agents/" + id).json();
      if (cond.test(last)) {
        return last;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("agent " + id + " did not reach the state within " + seconds + " s; last: " + last);
  }

  static String awaitBody(TestServer s, String path, Predicate<String> cond, int seconds) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
    String last = null;
    while (Instant.now().isBefore(deadline)) {
      TestServer.Response r = s.get(path);
      last = r.status() + " " + r.body();
      if (r.status() == 200 && cond.test(r.body())) {
        return r.body();
      }
      Thread.sleep(100);
    }
    throw new AssertionError(path + " did not answer as expected within " + seconds + " s; last: " + last);
  }
}
