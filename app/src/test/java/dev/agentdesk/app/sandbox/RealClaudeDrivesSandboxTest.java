package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.agents.AgentsApiTest;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code drives a real sandbox through agentdesk's MCP server: {@code sandbox start
 * --app "zenity --entry …" --record DIR} registers the desktop with serve; the scripted model
 * waits for the MCP server, observes the sandbox, and then clicks the entry and the OK button by
 * the element refs that observation gave (the replies are built from the request that carries the
 * tool result, {@link Reply#fromRequest}), typing in between. The desktop shows the effect: the
 * observation after typing has the text in the entry, zenity prints it when OK is clicked, and the
 * recording holds the agent's actions. That recording, replayed ({@code aci replay --fast}) onto a
 * fresh sandbox with the same app, matches reply by reply and leaves the same effect.
 */
class RealClaudeDrivesSandboxTest {
  static final String TYPED = "agent-was-here";
  static final Pattern ENTRY = Pattern.compile("(e\\d+) text \\(editable");
  static final Pattern OK = Pattern.compile("(e\\d+) push_button \\(is_default\\)");

  static final String APP = "zenity --entry --title 'Rename file' --text 'New name:'";

  @Test
  void claudeObservesClicksByRefAndTypesIntoASandboxApp(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    ClaudeCodeHome claude = new ClaudeCodeHome(dir.resolve("home"))
        .onboarded(List.of(dir.resolve("data/worktrees/repo/desk")));
    // the two tools are allowed up front, as a user who trusts this server would set it
    Files.writeString(claude.configDir().resolve("settings.json"), "{\"permissions\":{\"defaultMode\":\"default\","
        + "\"allow\":[\"mcp__agentdesk__sandbox_observe\",\"mcp__agentdesk__sandbox_act\"]}}\n");
    Path recording = dir.resolve("recording");
    try (ModelServer model = ModelServer.start()) {
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.remove("CODEX_HOME");
      env.putAll(claude.env(model.baseUrl()));
      env.put("ENABLE_TOOL_SEARCH", "false");
      try (TestServer s = TestServer.withAgents(dir, env, true); SandboxCli cli = new SandboxCli(dir)) {
        Path serveToken = dir.resolve("serve-token");
        Files.writeString(serveToken, s.token.orElseThrow());
        Files.setPosixFilePermissions(serveToken, PosixFilePermissions.fromString("rw-------"));
        JsonNode sb = cli.start("--name", "desk", "--app", APP,
            "--record", recording.toString(), "--server", s.base, "--token-file", serveToken.toString());
        String id = sb.path("id").asText();
        SandboxLifecycleTest.awaitTree(s, id, t -> t.contains("New name:"));
        claude.withHttpMcpServer("agentdesk", s.base + "/mcp", s.token.orElseThrow());

        String target = "{\"id\":\"" + id + "\",\"action\":";
        model.add(Script.of("m-desk",
            Reply.tool("WaitForMcpServers", "{\"servers\":[\"agentdesk\"]}"),
            Reply.tool("mcp__agentdesk__sandbox_observe", "{\"id\":\"" + id + "\"}"),
            Reply.fromRequest(body -> Reply.tool("mcp__agentdesk__sandbox_act",
                target + "{\"type\":\"click\",\"ref\":\"" + first(ENTRY, body) + "\"}}")),
            Reply.tool("mcp__agentdesk__sandbox_act", target + "{\"type\":\"type_text\",\"text\":\"" + TYPED
                + "\"},\"observe\":true}"),
            // and looks again (another input than the first look: a scripted call's id is a hash of both):
            // the tree after an edit follows AT-SPI's events, a moment after the keys
            Reply.tool("mcp__agentdesk__sandbox_observe", "{\"id\":\"" + id + "\",\"diff\":false}"),
            Reply.fromRequest(body -> Reply.tool("mcp__agentdesk__sandbox_act",
                target + "{\"type\":\"click\",\"ref\":\"" + first(OK, body) + "\"}}")),
            Reply.text("Renamed the file.")));

        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "claude",
            "repo", repo.toString(), "worktree", "desk", "prompt", "rename the file in the sandbox m-desk")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String agent = started.json().path("id").asText();

        ModelRequest observed = model.await("the observation", r -> "m-desk".equals(r.script()) && r.step() == 2,
            Duration.ofSeconds(60));
        assertThat(observed.body()).as("sandbox_observe's answer reached the model").contains("New name:");
        ModelRequest typed = model.await("the observations after typing", r -> "m-desk".equals(r.script())
            && r.step() == 5, Duration.ofSeconds(60));
        // the tool result is JSON inside the request's JSON: the tree's quotes arrive escaped twice
        assertThat(Pattern.compile("Value:[\\\\\"]+" + TYPED).matcher(typed.body()).find())
            .as("the tree after typing, with the text in the entry, reached the model").isTrue();
        model.await("the last step", r -> "m-desk".equals(r.script()) && r.step() == 6, Duration.ofSeconds(60));

        Path out = Path.of(sb.path("dir").asText(), "logs", "app-1.out");
        SandboxLifecycleTest.awaitTrue(() -> Files.readString(out).equals(TYPED + "\n"),
            "zenity printed what the agent typed, after the agent clicked OK");
        SandboxLifecycleTest.awaitTrue(() -> s.get("/api/agents/" + agent).json().path("status").path("phase").asText()
            .equals("idle"), "Claude is idle after its turn");

        SandboxCli.Result stop = cli.run("sandbox", "stop", id);
        assertThat(stop.exit()).as(stop.err()).isZero();
        String recorded = segments(recording);
        assertThat(recorded).as("the recording holds the agent's actions").contains("\"verb\":\"click\"")
            .contains("\"text\":\"" + TYPED + "\"").contains("element_ref").contains("New name:");

        // the recorded agent session replayed onto a fresh sandbox with the same app: the refs, the
        // typed text and both looks match, and zenity prints the text again
        JsonNode again = cli.start("--name", "again", "--app", APP, "--server", s.base, "--token-file",
            serveToken.toString());
        SandboxLifecycleTest.awaitTree(s, again.path("id").asText(), t -> t.contains("New name:"));
        CliRun replay = CliRun.run("aci", "replay", "--json", recording.toString(), "--fast", "--url",
            again.path("url").asText(), "--token-file", again.path("token_file").asText(), "--report-dir",
            dir.resolve("replay-report").toString());
        assertThat(replay.exit()).as("replay: %s %s", replay.out(), replay.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(replay.out());
        assertThat(report.path("matched").asBoolean()).as(replay.out()).isTrue();
        assertThat(report.path("sent").asLong()).as("every recorded message sent")
            .isEqualTo(report.path("recorded_messages").asLong()).isPositive();
        // both looks of the agent compared: the tree before and with the typed text
        assertThat(report.path("observations_compared").asLong()).as(replay.out()).isGreaterThanOrEqualTo(2);
        Path replayed = Path.of(again.path("dir").asText(), "logs", "app-1.out");
        SandboxLifecycleTest.awaitTrue(() -> Files.readString(replayed).equals(TYPED + "\n"),
            "the replay typed the agent's text into the fresh zenity and clicked its OK");
      }
    }
  }

  static String first(Pattern p, String body) {
    Matcher m = p.matcher(body);
    if (!m.find()) {
      throw new IllegalStateException("no " + p + " in the request the model got");
    }
    return m.group(1);
  }

  static String segments(Path recording) throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.list(recording)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segment-")).sorted().toList()) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }
}
