package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.index.Importer;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each agent writes its transcripts, worked out the way the agents themselves do: from
 * {@code $HOME} (not Java's {@code user.home}, which ignores it) and each tool's own variable
 * ({@code CLAUDE_CONFIG_DIR}, {@code CODEX_HOME}, {@code GEMINI_CLI_HOME}, {@code XDG_DATA_HOME},
 * {@code COPILOT_HOME}, {@code CURSOR_CONFIG_DIR}). The one place {@code history import} and
 * {@code serve} both take their default folders from; each adapter knows its own.
 */
public final class HistoryFolders {
  private HistoryFolders() {}

  /** {@code $HOME} when it is set to an absolute path, else the JVM's {@code user.home}. */
  public static Path home(Map<String, String> env) {
    String h = env.get("HOME");
    if (h != null && !h.isBlank() && Path.of(h).isAbsolute()) {
      return Path.of(h);
    }
    return Path.of(System.getProperty("user.home"));
  }

  /** Every provider's default folders for {@code env}, whether they exist or not, in provider order. */
  public static List<Importer.Root> defaults(Map<String, String> env) {
    Path home = home(env);
    List<Importer.Root> roots = new ArrayList<>();
    for (Provider p : Provider.values()) {
      for (Path dir : ProviderAdapter.of(p).defaultRoots(env, home)) {
        roots.add(new Importer.Root(p, dir));
      }
    }
    return List.copyOf(roots);
  }

  /**
   * The transcripts that providers keep inside projects (Aider's chat history) for the working
   * folders {@code folders} of known sessions, except those under {@code covered} (roots already
   * being imported); each is a root of its own.
   */
  public static List<Importer.Root> projectRoots(Collection<String> folders, Collection<Importer.Root> covered) {
    Set<Path> files = new LinkedHashSet<>();
    List<Importer.Root> roots = new ArrayList<>();
    for (String folder : folders) {
      Path dir;
      try {
        dir = Path.of(folder);
      } catch (InvalidPathException e) {
        continue; // a cwd recorded on another system
      }
      if (!dir.isAbsolute()) {
        continue;
      }
      for (Provider p : Provider.values()) {
        for (Path f : ProviderAdapter.of(p).projectFiles(dir)) {
          boolean under = covered.stream().anyMatch(r -> r.provider() == p && f.startsWith(r.path().toAbsolutePath()));
          if (!under && files.add(f)) {
            roots.add(new Importer.Root(p, f));
          }
        }
      }
    }
    return List.copyOf(roots);
  }

  /** The default folders of one provider. */
  public static List<Path> defaults(Provider provider, Map<String, String> env) {
    return ProviderAdapter.of(provider).defaultRoots(env, home(env));
  }
}
