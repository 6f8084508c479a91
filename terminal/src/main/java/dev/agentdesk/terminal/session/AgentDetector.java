package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the coding agent an argv runs, or parses an agent name given by a user. The agent decides
 * the idle threshold and which agent-gated parser rules run.
 */
public final class AgentDetector {

  /** Launchers that run the program named by a later argument ({@code npx claude}, {@code env X=1 codex}). */
  private static final Set<String> LAUNCHERS =
      Set.of("env", "npx", "bunx", "pnpx", "uvx", "pipx", "node", "bun", "deno", "python", "python3",
          "exec", "nohup", "time", "sudo", "stdbuf", "nice");

  private AgentDetector() {}

  /**
   * Parses an explicit agent name (case-insensitive).
   *
   * @throws SessionException with reason {@link SessionException.Reason#UNKNOWN_AGENT} naming the
   *     accepted values
   */
  public static Agent named(String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Agent a : Agent.values()) {
      if (a.cliName().equals(wanted)) {
        return a;
      }
    }
    throw new SessionException(SessionException.Reason.UNKNOWN_AGENT,
        "unknown agent '" + name + "'; expected one of " + names());
  }

  /** The accepted names, for help and error text. */
  public static String names() {
    StringBuilder sb = new StringBuilder();
    for (Agent a : Agent.values()) {
      sb.append(sb.length() == 0 ? "" : "|").append(a.cliName());
    }
    return sb.toString();
  }

  /**
   * Recognises the agent an argv runs. Looks through launchers and wrappers ({@code npx},
   * {@code env VAR=x}, {@code node path/to/cli.js}, {@code bash -c "claude --resume"}) and matches
   * the program's base name, also inside npm package names such as
   * {@code @anthropic-ai/claude-code} or {@code @google/gemini-cli}. Returns {@link Agent#NONE} when
   * nothing matches.
   */
  public static Agent detect(List<String> argv) {
    return detectIn(argv, 0);
  }

  private static Agent detectIn(List<String> argv, int depth) {
    if (argv == null || depth > 3) {
      return Agent.NONE;
    }
    for (int i = 0; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (arg == null || arg.isBlank()) {
        continue;
      }
      String base = baseName(arg);
      if (base.equals("sh") || base.equals("bash") || base.equals("zsh") || base.equals("fish")
          || base.equals("dash")) {
        int c = argv.indexOf("-c");
        return c > i && c + 1 < argv.size()
            ? detectIn(List.of(argv.get(c + 1).trim().split("\\s+")), depth + 1)
            : Agent.NONE;
      }
      boolean launcherOrOption = LAUNCHERS.contains(base) || arg.startsWith("-")
          || arg.matches("[A-Za-z_][A-Za-z0-9_]*=.*");
      if (launcherOrOption) {
        continue;
      }
      // The first real program decides: its own name, or a path segment for `node .../claude-code/cli.js`.
      for (String segment : arg.split("/")) {
        Optional<Agent> hit = match(baseName(segment));
        if (hit.isPresent()) {
          return hit.get();
        }
      }
      return Agent.NONE;
    }
    return Agent.NONE;
  }

  private static Optional<Agent> match(String base) {
    String b = base.toLowerCase(Locale.ROOT).replaceFirst("@[^@]*$", ""); // claude-code@latest
    for (Agent a : Agent.values()) {
      String n = a.cliName();
      if (a != Agent.NONE && (b.equals(n) || b.equals(n + "-code") || b.equals(n + "-cli") || b.equals(n + "-chat")
          || b.equals(n + ".js") || b.equals(n + ".mjs"))) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  private static String baseName(String arg) {
    String s = arg;
    if (s.startsWith("@") && s.indexOf('/') > 0) {
      s = s.substring(s.indexOf('/') + 1);
    }
    int slash = s.lastIndexOf('/');
    return slash >= 0 ? s.substring(slash + 1) : s;
  }
}
