package dev.agentdesk.agents;

/**
 * What {@code merge} did.
 *
 * @param kind fast-forward, merge commit, or nothing to do
 * @param baseBranch the branch that received the work
 * @param commit the base branch's commit after the merge
 * @param committedWork the commit made of the agent's uncommitted changes before merging, or null
 */
public record MergeResult(Kind kind, String baseBranch, String commit, String committedWork) {
  /** How the base branch moved. */
  public enum Kind {
    FAST_FORWARD, MERGE_COMMIT, UP_TO_DATE;

    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
