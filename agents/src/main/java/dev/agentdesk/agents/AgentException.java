package dev.agentdesk.agents;

import java.util.List;

/**
 * The one exception root of the agents module. {@link #reason()} says what failed, so the CLI and
 * the HTTP layer map it to a user error (4xx) or a fault (5xx) without reading the text.
 */
public class AgentException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What failed. */
  public enum Reason {
    /** An agent name that is not one of {@link AgentType}'s. */
    UNKNOWN_AGENT(true),
    /** The agent's CLI is not on PATH, or the explicit command is not an executable file. */
    COMMAND_NOT_FOUND(true),
    /** The spec is unusable: a bad worktree name, no argv for a custom command, … */
    INVALID_SPEC(true),
    /** The folder is not inside a git work tree. */
    NOT_A_REPOSITORY(true),
    /** The worktree name is taken: its folder or its branch exists. */
    WORKTREE_EXISTS(true),
    /** The base ref does not name a commit. */
    UNKNOWN_REF(true),
    /** No agent session with that id. */
    UNKNOWN_SESSION(true),
    /** The session's worktree folder was removed behind agentdesk's back. */
    WORKTREE_MISSING(true),
    /** The operation needs a running agent (send, answer) or an ended one (resume). */
    WRONG_STATE(true),
    /** The agent has no resume command, or no id to resume with. */
    NOT_RESUMABLE(true),
    /** Merge refused: the branch and the base change the same lines. */
    MERGE_CONFLICT(true),
    /** Merge refused: the base checkout has uncommitted changes. */
    BASE_DIRTY(true),
    /** Merge refused: the base is not a branch (a detached commit), or the session is in place. */
    NO_BASE_BRANCH(true),
    /** The answer is not one of the choice menu's options, or no menu is showing. */
    BAD_ANSWER(true),
    /** The server already runs as many terminals as it allows: stop one first. */
    TOO_MANY_RUNNING(true),
    /** git itself failed in a way we did not expect. */
    GIT_FAILED(false),
    /** The PTY could not be started. */
    SPAWN_FAILED(false),
    /** agents.db failed. */
    STORE_FAILURE(false);

    private final boolean userError;

    Reason(boolean userError) {
      this.userError = userError;
    }

    /** True when the caller can fix it by asking for something else. */
    public boolean isUserError() {
      return userError;
    }

    /** The lower-case code used on the wire ({@code merge_conflict}). */
    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Reason reason;
  private final List<String> paths;

  public AgentException(Reason reason, String message) {
    this(reason, message, List.of(), null);
  }

  public AgentException(Reason reason, String message, Throwable cause) {
    this(reason, message, List.of(), cause);
  }

  /** With the files the failure is about (the conflicting paths of a refused merge, the dirty files). */
  public AgentException(Reason reason, String message, List<String> paths, Throwable cause) {
    super(message, cause);
    this.reason = reason;
    this.paths = List.copyOf(paths);
  }

  public Reason reason() {
    return reason;
  }

  /** Files named by the failure; empty when it is not about files. */
  public List<String> paths() {
    return paths;
  }
}
