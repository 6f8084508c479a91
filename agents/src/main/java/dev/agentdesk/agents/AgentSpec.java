package dev.agentdesk.agents;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to start: which agent, in which repository, in a new worktree or in place, from which base,
 * with which first prompt. Immutable; start from {@link #of} and use the {@code with…} methods.
 *
 * @param agent the agent type
 * @param repo a folder inside the git repository to work on
 * @param worktreeName the worktree (and branch {@code agentdesk/<name>}) to create; empty means a
 *     generated name; ignored when {@code inPlace}
 * @param inPlace run in the repository's own checkout instead of a new worktree
 * @param base the ref the new worktree starts from; empty means the repository's current HEAD
 * @param prompt the first prompt (an argument where the CLI takes one, else typed once it is up)
 * @param command the executable to run instead of the agent's CLI on PATH (absolute path or a
 *     name looked up on PATH); for {@link AgentType#COMMAND}, argv[0]
 * @param args extra arguments after the executable (for {@link AgentType#COMMAND}, the rest of argv)
 * @param env extra environment for the agent process
 * @param cols terminal width
 * @param rows terminal height
 */
public record AgentSpec(AgentType agent, Path repo, Optional<String> worktreeName, boolean inPlace,
    Optional<String> base, Optional<String> prompt, Optional<String> command, List<String> args,
    Map<String, String> env, int cols, int rows) {

  public AgentSpec {
    args = List.copyOf(args);
    env = Map.copyOf(env);
  }

  /** {@code agent} in a new worktree of {@code repo} from its HEAD, 120×36, no prompt. */
  public static AgentSpec of(AgentType agent, Path repo) {
    return new AgentSpec(agent, repo, Optional.empty(), false, Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(), Map.of(), 120, 36);
  }

  public AgentSpec withWorktree(String name) {
    return new AgentSpec(agent, repo, Optional.ofNullable(name), false, base, prompt, command, args, env, cols, rows);
  }

  public AgentSpec withInPlace(boolean value) {
    return new AgentSpec(agent, repo, worktreeName, value, base, prompt, command, args, env, cols, rows);
  }

  public AgentSpec withBase(String ref) {
    return new AgentSpec(agent, repo, worktreeName, inPlace, Optional.ofNullable(ref), prompt, command, args, env,
        cols, rows);
  }

  public AgentSpec withPrompt(String text) {
    return new AgentSpec(agent, repo, worktreeName, inPlace, base, Optional.ofNullable(text), command, args, env,
        cols, rows);
  }

  public AgentSpec withCommand(String executable) {
    return new AgentSpec(agent, repo, worktreeName, inPlace, base, prompt, Optional.ofNullable(executable), args, env,
        cols, rows);
  }

  public AgentSpec withArgs(List<String> more) {
    return new AgentSpec(agent, repo, worktreeName, inPlace, base, prompt, command, more, env, cols, rows);
  }

  public AgentSpec withEnv(String name, String value) {
    Map<String, String> m = new LinkedHashMap<>(env);
    m.put(name, value);
    return new AgentSpec(agent, repo, worktreeName, inPlace, base, prompt, command, args, m, cols, rows);
  }

  public AgentSpec withSize(int newCols, int newRows) {
    return new AgentSpec(agent, repo, worktreeName, inPlace, base, prompt, command, args, env, newCols, newRows);
  }
}
