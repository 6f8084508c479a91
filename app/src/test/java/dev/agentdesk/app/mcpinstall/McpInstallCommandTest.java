package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * {@code agentdesk mcp install} for every client, on a temp HOME: the entry each agent documents,
 * other settings kept byte for byte where the format allows, a second run that changes nothing, and
 * a --remove that gives back the file as it was (or no file, when there was none).
 */
class McpInstallCommandTest {
  static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;
  Path home;
  Path agentdesk;
  Map<String, String> env;

  @BeforeEach
  void setUp() throws IOException {
    home = Files.createDirectories(tmp.resolve("home"));
    agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");
    env = new HashMap<>(Map.of("HOME", home.toString(), "PATH", tmp.resolve("empty-bin").toString()));
  }

  record Run(int exit, String out, String err) {}

  Run install(String... args) {
    List<String> all = new ArrayList<>(List.of("--command", agentdesk.toString()));
    all.addAll(List.of(args));
    CliInstalls.Outcome o = CliInstalls.execute(env, all);
    return new Run(o.exit(), o.out(), o.err());
  }

  /** The configuration file each client reads, under the temp HOME. */
  Path fileOf(Clients.Client c) {
    return switch (c) {
      case claude -> home.resolve(".claude.json");
      case codex -> home.resolve(".codex/config.toml");
      case gemini -> home.resolve(".gemini/settings.json");
      case opencode -> home.resolve(".config/opencode/opencode.json");
      case cursor -> home.resolve(".cursor/mcp.json");
      case copilot -> home.resolve(".copilot/mcp-config.json");
    };
  }

  @ParameterizedTest
  @EnumSource(Clients.Client.class)
  void onNothingAddsTheEntryOnceAndRemoveLeavesNothing(Clients.Client client) throws IOException {
    Path file = fileOf(client);
    Run first = install("--client", client.name(), "--no-cli");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).contains(client.name() + ": added " + file);
    String written = Files.readString(file);
    assertEntry(client, written);

    Run again = install("--client", client.name(), "--no-cli");
    assertThat(again.out()).contains("nothing changed");
    assertThat(Files.readString(file)).isEqualTo(written);

    Run removed = install("--client", client.name(), "--no-cli", "--remove");
    assertThat(removed.out()).contains(client.name() + ": removed");
    assertThat(file).doesNotExist();
    assertThat(install("--client", client.name(), "--no-cli", "--remove").out()).contains("nothing changed");
  }

  private void assertEntry(Clients.Client client, String written) throws IOException {
    String cmd = agentdesk.toString();
    if (client == Clients.Client.codex) {
      assertThat(written).isEqualTo("[mcp_servers.agentdesk]\ncommand = \"" + cmd + "\"\nargs = [\"mcp\"]\n");
      return;
    }
    JsonNode root = JSON.readTree(written);
    JsonNode e = switch (client) {
      case opencode -> root.path("mcp").path("agentdesk");
      default -> root.path("mcpServers").path("agentdesk");
    };
    switch (client) {
      case claude -> assertThat(e).isEqualTo(JSON.readTree(
          "{\"type\":\"stdio\",\"command\":\"" + cmd + "\",\"args\":[\"mcp\"],\"env\":{}}"));
      case gemini, cursor -> assertThat(e).isEqualTo(JSON.readTree("{\"command\":\"" + cmd + "\",\"args\":[\"mcp\"]}"));
      case copilot -> assertThat(e).isEqualTo(JSON.readTree(
          "{\"type\":\"local\",\"command\":\"" + cmd + "\",\"args\":[\"mcp\"],\"tools\":[\"*\"]}"));
      case opencode -> assertThat(e).isEqualTo(JSON.readTree(
          "{\"type\":\"local\",\"command\":[\"" + cmd + "\",\"mcp\"],\"enabled\":true}"));
      default -> throw new AssertionError(client);
    }
  }

  @Test
  void jsonKeepsEveryOtherSettingAndRemoveGivesBackTheSameBytes() throws IOException {
    Path file = fileOf(Clients.Client.gemini);
    Files.createDirectories(file.getParent());
    String original = """
        {
          "theme": "GitHub",
          "mcpServers": {
            "other": {
              "command": "npx",
              "args": [
                "-y",
                "other-server"
              ]
            }
          },
          "selectedAuthType": "gemini-api-key",
          "empty": {},
          "list": []
        }
        """;
    Files.writeString(file, original);
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    assertThat(install("--client", "gemini").exit()).isZero();
    JsonNode after = JSON.readTree(Files.readString(file));
    assertThat(after.path("theme").asText()).isEqualTo("GitHub");
    assertThat(after.path("mcpServers").path("other").path("args").get(1).asText()).isEqualTo("other-server");
    assertThat(after.path("mcpServers").path("agentdesk").path("command").asText()).isEqualTo(agentdesk.toString());
    List<String> keys = new ArrayList<>();
    after.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("theme", "mcpServers", "selectedAuthType", "empty", "list");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .as("the file's mode is kept").isEqualTo("rw-------");

    assertThat(install("--client", "gemini", "--remove").out()).contains("removed mcpServers.agentdesk from " + file);
    assertThat(Files.readString(file)).isEqualTo(original);
  }

  @Test
  void aChangedCommandIsUpdatedInPlace() throws IOException {
    install("--client", "cursor");
    agentdesk = tmp.resolve("elsewhere/agentdesk");
    Run r = install("--client", "cursor", "--allow-control");
    assertThat(r.out()).contains("cursor: updated");
    JsonNode e = JSON.readTree(Files.readString(fileOf(Clients.Client.cursor))).path("mcpServers").path("agentdesk");
    assertThat(e.path("command").asText()).isEqualTo(agentdesk.toString());
    assertThat(e.path("args").toString()).isEqualTo("[\"mcp\",\"--allow-control\"]");
  }

  @Test
  void tomlTouchesOnlyTheAgentdeskTable() throws IOException {
    Path file = fileOf(Clients.Client.codex);
    Files.createDirectories(file.getParent());
    String original = """
        # my codex settings
        model = "gpt-5-codex"   # a comment

        [mcp_servers.docs]
        command = "npx"
        args = ["-y", "docs-mcp"]

        [profiles.fast]
        model_reasoning_effort = "low"
        """;
    Files.writeString(file, original);
    assertThat(install("--client", "codex").out()).contains("codex: added " + file + " ([mcp_servers.agentdesk])");
    String installed = Files.readString(file);
    assertThat(installed).startsWith(original)
        .endsWith("\n[mcp_servers.agentdesk]\ncommand = \"" + agentdesk + "\"\nargs = [\"mcp\"]\n");
    assertThat(install("--client", "codex").out()).contains("nothing changed");

    // A table edited by hand in the middle of the file is replaced where it is.
    String middle = original.replace("[profiles.fast]", "[mcp_servers.agentdesk]\ncommand = \"old\"\n\n[profiles.fast]");
    Files.writeString(file, middle);
    assertThat(install("--client", "codex").out()).contains("codex: updated");
    assertThat(Files.readString(file)).isEqualTo(original.replace("[profiles.fast]",
        "[mcp_servers.agentdesk]\ncommand = \"" + agentdesk + "\"\nargs = [\"mcp\"]\n\n[profiles.fast]"));
    install("--client", "codex", "--remove");
    assertThat(Files.readString(file)).isEqualTo(original);
  }

  @Test
  void codexHomeAndXdgConfigHomeAreWhereTheAgentsLook() throws IOException {
    env.put("CODEX_HOME", tmp.resolve("codexhome").toString());
    env.put("XDG_CONFIG_HOME", tmp.resolve("xdg").toString());
    install("--client", "codex,opencode");
    assertThat(tmp.resolve("codexhome/config.toml")).exists();
    assertThat(tmp.resolve("xdg/opencode/opencode.json")).exists();
  }

  @Test
  void anOpencodeJsoncIsNotRewrittenAndTheMessageSaysWhatToAdd() throws IOException {
    Path jsonc = home.resolve(".config/opencode/opencode.jsonc");
    Files.createDirectories(jsonc.getParent());
    Files.writeString(jsonc, "{\n  // mine\n  \"theme\": \"x\",\n}\n");
    Run r = install("--client", "opencode");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("comments").contains("by hand");
    assertThat(Files.readString(jsonc)).contains("// mine");
  }

  @Test
  void invalidJsonIsLeftAloneWithTheLineOfTheProblem() throws IOException {
    Path file = fileOf(Clients.Client.cursor);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\n  \"mcpServers\": {,\n}\n");
    Run r = install("--client", "cursor");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("not valid JSON").contains("line 2");
    assertThat(Files.readString(file)).isEqualTo("{\n  \"mcpServers\": {,\n}\n");
  }

  @Test
  void jsonOutputListsEachChange() throws IOException {
    Run r = install("--client", "gemini,cursor", "--json");
    JsonNode doc = JSON.readTree(r.out());
    assertThat(doc.path("command").toString()).isEqualTo("[\"" + agentdesk + "\",\"mcp\"]");
    assertThat(doc.path("changes")).hasSize(2);
    assertThat(doc.path("changes").get(0).path("action").asText()).isEqualTo("added");
    assertThat(doc.path("changes").get(1).path("key").asText()).isEqualTo("mcpServers.agentdesk");
  }

  @Test
  void withoutCommandOrAgentdeskOnPathTheErrorSaysWhatToDo() {
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    cl.setExecutionExceptionHandler((ex, c, p) -> {
      err.write(ex.getMessage());
      return 2;
    });
    String before = System.getProperty("agentdesk.launcher");
    System.clearProperty("agentdesk.launcher");
    try {
      assertThat(cl.execute("--client", "gemini")).isEqualTo(2);
    } finally {
      if (before != null) {
        System.setProperty("agentdesk.launcher", before);
      }
    }
    assertThat(err.toString()).contains("./agentdesk install").contains("--command");
  }
}
