package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.MonotonicClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to run and how: argv, extra environment, working directory, terminal size, the agent (given
 * or detected from argv), timing windows and the clock. Immutable; start from {@link #of} and use
 * the {@code with…} methods. {@link #validate()} is called by {@link PtySession#start}.
 *
 * @param argv program and arguments; {@code argv.get(0)} is looked up on {@code PATH}
 * @param env variables added to (or overriding) the parent's environment
 * @param cwd working directory; empty means the current one
 * @param explicitAgent the agent named by the caller; empty means detect from argv
 * @param replaysHistory the program first redraws an earlier conversation (an agent resumed):
 *     the errors and limits on it are the past, so none is reported before the user's first input
 */
public record SessionSpec(List<String> argv, Map<String, String> env, Optional<Path> cwd, int cols, int rows,
    Optional<Agent> explicitAgent, SessionTiming timing, MonotonicClock clock, boolean replaysHistory) {

  /** Largest accepted width or height; the kernel's winsize fields are 16-bit. */
  public static final int MAX_DIMENSION = 9999;

  public SessionSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
    // The C strings exec takes end at the first NUL: a NUL would cut an argument short unseen.
    for (int i = 0; i < argv.size(); i++) {
      if (argv.get(i).indexOf('\0') >= 0) {
        throw new SessionException(SessionException.Reason.INVALID_SPEC,
            "argv[" + i + "] contains a NUL byte, which no program argument can hold");
      }
    }
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (e.getKey().isEmpty() || e.getKey().indexOf('\0') >= 0 || e.getKey().indexOf('=') >= 0
          || e.getValue().indexOf('\0') >= 0) {
        throw new SessionException(SessionException.Reason.INVALID_SPEC, "environment variable '"
            + e.getKey().replace("\0", "\\0") + "' is not a valid NAME=VALUE (no '=' in the name, no NUL byte)");
      }
    }
  }

  /** argv at 80×24, inheriting the environment and the current directory, agent detected. */
  public static SessionSpec of(List<String> argv) {
    return new SessionSpec(argv, Map.of(), Optional.empty(), 80, 24, Optional.empty(), SessionTiming.defaults(),
        MonotonicClock.system(), false);
  }

  public static SessionSpec of(String... argv) {
    return of(List.of(argv));
  }

  /** The explicit agent, or the one {@link Agent#detect} finds in argv. */
  public Agent agent() {
    return explicitAgent.orElseGet(() -> AgentDetector.detect(argv));
  }

  public SessionSpec withSize(int newCols, int newRows) {
    return new SessionSpec(argv, env, cwd, newCols, newRows, explicitAgent, timing, clock, replaysHistory);
  }

  public SessionSpec withCwd(Path dir) {
    return new SessionSpec(argv, env, Optional.ofNullable(dir), cols, rows, explicitAgent, timing, clock, replaysHistory);
  }

  public SessionSpec withEnv(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(env);
    more.put(name, value);
    return new SessionSpec(argv, more, cwd, cols, rows, explicitAgent, timing, clock, replaysHistory);
  }

  public SessionSpec withAgent(Agent agent) {
    return new SessionSpec(argv, env, cwd, cols, rows, Optional.ofNullable(agent), timing, clock, replaysHistory);
  }

  public SessionSpec withTiming(SessionTiming newTiming) {
    return new SessionSpec(argv, env, cwd, cols, rows, explicitAgent, newTiming, clock, replaysHistory);
  }

  /** The program redraws an earlier conversation first: see {@code replaysHistory}. */
  public SessionSpec withHistoryReplay(boolean replays) {
    return new SessionSpec(argv, env, cwd, cols, rows, explicitAgent, timing, clock, replays);
  }

  public SessionSpec withClock(MonotonicClock newClock) {
    return new SessionSpec(argv, env, cwd, cols, rows, explicitAgent, timing, newClock, replaysHistory);
  }

  /**
   * Checks what can be checked before spawning.
   *
   * @throws SessionException {@link SessionException.Reason#INVALID_SPEC} naming the bad field
   */
  public SessionSpec validate() {
    if (argv.isEmpty() || argv.get(0).isBlank()) {
      throw invalid("argv is empty: give the program to run");
    }
    for (String a : argv) {
      if (a.indexOf('\0') >= 0) {
        throw invalid("argv element contains a NUL byte: " + a.replace("\0", "\\0"));
      }
    }
    checkDimension("cols", cols);
    checkDimension("rows", rows);
    for (Map.Entry<String, String> e : env.entrySet()) {
      String k = e.getKey();
      if (k.isEmpty() || k.indexOf('=') >= 0 || k.indexOf('\0') >= 0 || e.getValue().indexOf('\0') >= 0) {
        throw invalid("environment variable name must be non-empty without '=' or NUL: '" + k + "'");
      }
    }
    if (cwd.isPresent() && !Files.isDirectory(cwd.get())) {
      throw invalid("working directory does not exist or is not a directory: " + cwd.get());
    }
    return this;
  }

  static void checkDimension(String name, int value) {
    if (value < 1 || value > MAX_DIMENSION) {
      throw invalid(name + " must be between 1 and " + MAX_DIMENSION + ", got " + value);
    }
  }

  private static SessionException invalid(String message) {
    return new SessionException(SessionException.Reason.INVALID_SPEC, message);
  }
}
