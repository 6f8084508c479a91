package dev.agentdesk.aci.runtime.exec;

import java.util.List;
import java.util.Map;

/**
 * One validated exec: exactly one of {@code argv} (run directly) or {@code shell} (run by
 * {@code /bin/sh -c}); {@code cwd}, {@code stdin} may be null; {@code env} is merged over the
 * runtime's environment; {@code timeoutMs} is already clamped.
 */
public record ExecRequest(List<String> argv, String shell, String cwd, Map<String, String> env, String stdin,
    long timeoutMs) {
  public ExecRequest {
    if ((argv == null) == (shell == null)) {
      throw new IllegalArgumentException("exactly one of argv or shell");
    }
    argv = argv == null ? null : List.copyOf(argv);
    env = env == null ? Map.of() : Map.copyOf(env);
  }

  /** The command line the child runs. */
  public List<String> command() {
    return argv != null ? argv : List.of("/bin/sh", "-c", shell);
  }
}
