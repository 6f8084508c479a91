package dev.agentdesk.agents;

import java.util.List;

/**
 * What an agent has changed: its worktree (commits, uncommitted and untracked files alike) against
 * the point where it left its base.
 *
 * @param base the base as the session names it (branch, ref or commit)
 * @param fromCommit the commit compared against: the merge base of the base and the worktree's HEAD
 * @param files changed files in path order
 * @param patch the unified diff ({@code git diff -M}); binary files appear as "Binary files … differ"
 */
public record WorktreeDiff(String base, String fromCommit, List<FileChange> files, String patch) {
  public WorktreeDiff {
    files = List.copyOf(files);
  }

  /** How a file changed. */
  public enum Status {
    ADDED, MODIFIED, DELETED, RENAMED, TYPE_CHANGED;

    /** Lower-case wire name ({@code added}, …, {@code type_changed}). */
    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One changed file.
   *
   * @param path the path after the change (for a deletion: the deleted path)
   * @param oldPath the path before a rename, else null
   * @param added lines added (0 for a binary file)
   * @param removed lines removed (0 for a binary file)
   * @param binary git sees the file as binary; counts do not apply
   */
  public record FileChange(String path, String oldPath, Status status, int added, int removed, boolean binary) {}
}
