package dev.agentdesk.app.mcpinstall;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.HistoryFolders;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk mcp install --client NAME [--remove]}: registers {@code agentdesk mcp} as an MCP
 * server named {@code agentdesk} in that agent's own user configuration, the way the agent documents
 * it; for Claude Code through {@code claude mcp add --scope user} when {@code claude} is on PATH.
 * A second run changes nothing; {@code --remove} takes out what it added and nothing else.
 */
@Command(name = "install", mixinStandardHelpOptions = true,
    description = {"Register 'agentdesk mcp' as the MCP server 'agentdesk' in an agent's user configuration:",
        "  claude    'claude mcp add --scope user' when claude is on PATH, else ~/.claude.json mcpServers",
        "  codex     [mcp_servers.agentdesk] in ~/.codex/config.toml ($CODEX_HOME)",
        "  gemini    mcpServers in ~/.gemini/settings.json",
        "  opencode  mcp in ~/.config/opencode/opencode.json ($XDG_CONFIG_HOME)",
        "  cursor    mcpServers in ~/.cursor/mcp.json",
        "  copilot   mcpServers in ~/.copilot/mcp-config.json ($COPILOT_HOME)",
        "Other settings in those files are kept. Running it again changes nothing; --remove undoes it.",
        "Prints the file and key it changed."})
public final class McpInstallCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--client", required = true, split = ",", paramLabel = "AGENT",
      description = "The agent(s) to register with: ${COMPLETION-CANDIDATES} (comma-separated for several).")
  List<Clients.Client> clients;

  @Option(names = "--remove", description = "Take the agentdesk entry out again.")
  boolean remove;

  @Option(names = "--command", paramLabel = "PATH",
      description = "The agentdesk to register. Default: the one running (its launcher), else agentdesk on PATH.")
  Path command;

  @Option(names = "--allow-control", description = "Register 'agentdesk mcp --allow-control' (tools that type, start and exec).")
  boolean allowControl;

  @Option(names = "--no-cli", description = "Edit Claude Code's ~/.claude.json directly even when claude is on PATH.")
  boolean noCli;

  @Option(names = "--json", description = "Print the changes as JSON: changes[] (client, file, key, action, via).")
  boolean json;

  /** Where HOME, PATH and the agents' config variables come from (tests give their own). */
  Map<String, String> env = System.getenv();

  @Override
  public Integer call() throws IOException {
    Path home = HistoryFolders.home(env);
    Clients c = new Clients(env, home);
    List<String> argv = new ArrayList<>(List.of(agentdesk().toString(), "mcp"));
    if (allowControl) {
      argv.add("--allow-control");
    }
    List<Change> changes = new ArrayList<>();
    for (Clients.Client client : clients) {
      Optional<Path> claude = client == Clients.Client.claude && !noCli ? onPath("claude") : Optional.empty();
      changes.add(claude.isPresent() ? viaClaudeCli(c, claude.get(), argv) : c.apply(client, argv, remove));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Change ch : changes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("client", ch.client());
        m.put("file", ch.file().toString());
        m.put("key", ch.key());
        m.put("action", ch.action());
        m.put("via", ch.via());
        list.add(m);
      }
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
          .writeValueAsString(Map.of("command", argv, "changes", list)));
    } else {
      for (Change ch : changes) {
        out.println(ch.line());
      }
      if (!remove && changes.stream().anyMatch(Change::changed)) {
        out.println("The agent starts '" + String.join(" ", argv) + "' from its next session on.");
      }
    }
    out.flush();
    return 0;
  }

  /** Claude Code through its own CLI, deciding from its file whether anything needs doing. */
  private Change viaClaudeCli(Clients c, Path claude, List<String> argv) {
    JsonConfig file = new JsonConfig(c.claudeFile(), List.of("mcpServers"), Clients.NAME);
    var now = file.current();
    String removeCmd = claude + " mcp remove --scope user " + Clients.NAME;
    if (remove) {
      if (now.isEmpty()) {
        return new Change("claude", file.file(), file.key(), "unchanged", "file");
      }
      runClaude(List.of(claude.toString(), "mcp", "remove", "--scope", "user", Clients.NAME));
      return new Change("claude", file.file(), file.key(), "removed", "claude mcp remove --scope user " + Clients.NAME);
    }
    if (now.isPresent() && now.get().equals(c.claudeEntry(argv))) {
      return new Change("claude", file.file(), file.key(), "unchanged", "file");
    }
    if (now.isPresent()) {
      runClaude(List.of(claude.toString(), "mcp", "remove", "--scope", "user", Clients.NAME));
    }
    List<String> add = new ArrayList<>(List.of(claude.toString(), "mcp", "add", "--scope", "user", Clients.NAME, "--"));
    add.addAll(argv);
    runClaude(add);
    if (file.current().isEmpty()) {
      throw new UserError("'" + String.join(" ", add) + "' ran but " + file.file() + " has no " + file.key()
          + "; run it yourself to see why, or use --no-cli to edit the file directly");
    }
    return new Change("claude", file.file(), file.key(), now.isPresent() ? "updated" : "added",
        "claude mcp add --scope user " + Clients.NAME + " -- " + String.join(" ", argv)
            + (now.isPresent() ? " (after " + removeCmd + ")" : ""));
  }

  private void runClaude(List<String> argv) {
    try {
      Path log = Files.createTempFile("agentdesk-claude", ".out");
      try {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
          throw new UserError("'" + String.join(" ", argv) + "' did not finish within 60 s; run it yourself, or use --no-cli");
        }
        if (p.exitValue() != 0) {
          throw new UserError("'" + String.join(" ", argv) + "' exited " + p.exitValue() + ": "
              + Files.readString(log, StandardCharsets.UTF_8).strip() + "; or use --no-cli to edit the file directly");
        }
      } finally {
        Files.deleteIfExists(log);
      }
    } catch (IOException e) {
      throw new UserError("cannot run " + argv.get(0) + ": " + e.getMessage() + "; or use --no-cli", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while running " + argv.get(0), e);
    }
  }

  /** The agentdesk to register: --command, the running launcher, else agentdesk on PATH; absolute. */
  private Path agentdesk() {
    if (command != null) {
      return command.toAbsolutePath().normalize();
    }
    String launcher = System.getProperty("agentdesk.launcher");
    if (launcher != null && !launcher.isBlank()) {
      return Path.of(launcher).toAbsolutePath().normalize();
    }
    return onPath("agentdesk").map(Path::toAbsolutePath).orElseThrow(() -> new UserError(
        "no agentdesk on PATH to register: install it first ('./agentdesk install' from a clone), or give --command PATH"));
  }

  private Optional<Path> onPath(String name) {
    for (String dir : env.getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty()) {
        Path p = Path.of(dir).resolve(name);
        if (Files.isRegularFile(p) && Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }
}
