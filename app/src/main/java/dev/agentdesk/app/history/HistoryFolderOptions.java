package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.HistoryFolders;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The transcript folders of {@code history import} and {@code serve}: the ones named on the command
 * line, or, when none is, every provider's defaults from {@link HistoryFolders} (the agents' own
 * rules: {@code $HOME} and each tool's variable).
 */
public final class HistoryFolderOptions {
  @Option(names = "--claude", paramLabel = "DIR", description = "Claude Code projects folder (repeatable)."
      + " Default: $CLAUDE_CONFIG_DIR/projects, else ~/.config/claude/projects and ~/.claude/projects")
  List<Path> claude = new ArrayList<>();

  @Option(names = "--codex", paramLabel = "DIR", description = "Codex sessions folder (repeatable)."
      + " Default: $CODEX_HOME/sessions, else ~/.codex/sessions")
  List<Path> codex = new ArrayList<>();

  @Option(names = "--gemini", paramLabel = "DIR", description = "Gemini CLI folder (repeatable)."
      + " Default: $GEMINI_CLI_HOME/.gemini/tmp, else ~/.gemini/tmp")
  List<Path> gemini = new ArrayList<>();

  @Option(names = "--opencode", paramLabel = "DIR", description = "OpenCode data folder (opencode.db and storage/), a"
      + " storage folder or an opencode.db (repeatable). Default: $XDG_DATA_HOME/opencode, else ~/.local/share/opencode")
  List<Path> opencode = new ArrayList<>();

  @Option(names = "--copilot", paramLabel = "DIR", description = "Copilot CLI session-state folder (repeatable)."
      + " Default: $COPILOT_HOME/session-state, else ~/.copilot/session-state")
  List<Path> copilot = new ArrayList<>();

  @Option(names = "--cursor", paramLabel = "DIR", description = "Cursor agent projects folder (repeatable)."
      + " Default: $CURSOR_CONFIG_DIR/projects, else ~/.cursor/projects")
  List<Path> cursor = new ArrayList<>();

  @Option(names = "--pi", paramLabel = "DIR", description = "pi coding agent sessions folder (repeatable). Default:"
      + " $PI_CODING_AGENT_SESSION_DIR, settings.json's sessionDir, and $PI_CODING_AGENT_DIR/sessions (~/.pi/agent/sessions)")
  List<Path> pi = new ArrayList<>();

  @Option(names = "--aider", paramLabel = "DIR", description = "A folder to search for Aider's .aider.chat.history.md"
      + " (the folder and three levels below; or the file itself; repeatable). Aider histories in the working folders of"
      + " imported sessions are always read. Default: $AIDER_CHAT_HISTORY_FILE")
  List<Path> aider = new ArrayList<>();

  private Map<Provider, List<Path>> named() {
    Map<Provider, List<Path>> m = new LinkedHashMap<>();
    m.put(Provider.CLAUDE, claude);
    m.put(Provider.CODEX, codex);
    m.put(Provider.GEMINI, gemini);
    m.put(Provider.OPENCODE, opencode);
    m.put(Provider.COPILOT, copilot);
    m.put(Provider.CURSOR, cursor);
    m.put(Provider.PI, pi);
    m.put(Provider.AIDER, aider);
    return m;
  }

  /** True when no folder was named: the defaults apply. */
  public boolean usesDefaults() {
    return named().values().stream().allMatch(List::isEmpty);
  }

  /**
   * The named folders, or every provider's default folders.
   *
   * @param existingOnly for an import: a named folder must exist, and default folders that do not
   *     are left out; a server keeps them all, to pick each up once the agent creates it
   */
  public List<Importer.Root> roots(Map<String, String> env, boolean existingOnly) {
    if (usesDefaults()) {
      List<Importer.Root> all = HistoryFolders.defaults(env);
      return existingOnly ? all.stream().filter(r -> Files.exists(r.path())).toList() : all;
    }
    List<Importer.Root> roots = new ArrayList<>();
    named().forEach((provider, dirs) -> {
      for (Path p : dirs) {
        if (existingOnly && !Files.exists(p)) {
          throw new UserError(p + " does not exist (given with --" + provider.id() + ")");
        }
        roots.add(new Importer.Root(provider, p));
      }
    });
    return roots;
  }

  /** What the help and errors say about the defaults: every default folder, one per line. */
  public static String describeDefaults(Map<String, String> env) {
    StringBuilder sb = new StringBuilder();
    for (Importer.Root r : HistoryFolders.defaults(env)) {
      sb.append("\n  ").append(r.provider().id()).append(": ").append(r.path());
    }
    return sb.toString();
  }
}
