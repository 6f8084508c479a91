package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentException.Reason;
import dev.agentdesk.agents.WorktreeDiff.FileChange;
import dev.agentdesk.agents.WorktreeDiff.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The diff of a worktree's current state against its base.
 *
 * <p>"Current state" includes what the agent has not committed: tracked edits, deletions and new
 * files that .gitignore does not exclude. We get it as a tree without touching anybody's index:
 * a copy of the worktree's index (so git's stat cache spares re-hashing unchanged files) in a
 * temporary file named by {@code GIT_INDEX_FILE}, {@code git add -A} into that copy, then
 * {@code git write-tree}. The only lasting effect is loose blob objects, which git's gc collects.
 * The diff is from the merge base of the base and the worktree's HEAD to that tree, so commits
 * that landed on the base meanwhile do not show up as the agent's changes.
 */
final class Diffs {
  private final Git git;

  Diffs(Git git) {
    this.git = git;
  }

  /**
   * @param worktree the folder to read (a linked worktree or, in place, the repository)
   * @param base the name to report
   * @param baseRef what to compute the merge base with (branch, or the recorded base commit)
   * @param baseCommit fallback when {@code baseRef} no longer resolves (a deleted branch)
   */
  WorktreeDiff diff(Path worktree, String base, String baseRef, String baseCommit) {
    if (!Files.isDirectory(worktree)) {
      throw new AgentException(Reason.WORKTREE_MISSING, "worktree " + worktree + " no longer exists");
    }
    String from = mergeBase(worktree, baseRef, baseCommit);
    String tree = stateTree(worktree);
    String[] range = {from, tree};
    Map<String, int[]> counts = numstat(worktree, range);
    List<FileChange> files = new ArrayList<>();
    String[] ns = git.check(worktree, "diff", "--no-ext-diff", "-M", "--name-status", "-z",
        from, tree).split("\0");
    for (int i = 0; i < ns.length; ) {
      String code = ns[i++];
      if (code.isEmpty()) {
        continue;
      }
      char k = code.charAt(0);
      String oldPath = null;
      String path;
      if (k == 'R' || k == 'C') {
        oldPath = ns[i++];
        path = ns[i++];
      } else {
        path = ns[i++];
      }
      Status status = switch (k) {
        case 'A', 'C' -> Status.ADDED;
        case 'D' -> Status.DELETED;
        case 'R' -> Status.RENAMED;
        case 'T' -> Status.TYPE_CHANGED;
        default -> Status.MODIFIED;
      };
      int[] c = counts.getOrDefault(path, new int[] {0, 0, 0});
      files.add(new FileChange(path, k == 'R' ? oldPath : null, status, c[0], c[1], c[2] == 1));
    }
    files.sort(java.util.Comparator.comparing(FileChange::path));
    String patch = git.check(worktree, "diff", "--no-color", "--no-ext-diff", "-M", from, tree);
    return new WorktreeDiff(base, from, files, patch);
  }

  private String mergeBase(Path worktree, String baseRef, String baseCommit) {
    Git.Result mb = git.run(worktree, "merge-base", baseRef, "HEAD");
    if (mb.ok()) {
      return mb.firstLine();
    }
    Git.Result fallback = git.run(worktree, "merge-base", baseCommit, "HEAD");
    if (fallback.ok()) {
      return fallback.firstLine();
    }
    // Unrelated history (the agent rewrote everything): compare with the base commit itself.
    return baseCommit;
  }

  /** The tree of the worktree as it is on disk (tracked and untracked, ignored files excluded). */
  private String stateTree(Path worktree) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile("agentdesk-index-", "");
      Path index = Path.of(git.check(worktree, "rev-parse", "--path-format=absolute", "--git-path", "index").strip());
      Git temp = git.with(Map.of("GIT_INDEX_FILE", tmp.toString()));
      if (Files.isRegularFile(index)) {
        Files.copy(index, tmp, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.delete(tmp); // git wants a valid index or none
        temp.check(worktree, "read-tree", "HEAD");
      }
      temp.check(worktree, "add", "-A", "--", ".");
      return temp.check(worktree, "write-tree").strip();
    } catch (IOException e) {
      throw new AgentException(Reason.GIT_FAILED, "cannot make a temporary index: " + e.getMessage(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
          Files.deleteIfExists(Path.of(tmp + ".lock"));
        } catch (IOException e) {
          // a temp file left in /tmp is harmless
        }
      }
    }
  }

  /** path → {added, removed, binary?1:0}, from {@code --numstat -z} (renames: "a\tr\t\0old\0new\0"). */
  private Map<String, int[]> numstat(Path worktree, String[] range) {
    String[] parts = git.check(worktree, "diff", "--no-ext-diff", "-M", "--numstat", "-z", range[0], range[1])
        .split("\0");
    Map<String, int[]> out = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      String head = parts[i];
      if (head.isEmpty()) {
        continue;
      }
      String[] f = head.split("\t", 3);
      if (f.length < 3) {
        continue;
      }
      String path = f[2];
      if (path.isEmpty()) { // a rename: old and new path follow as their own fields
        i += 2;
        path = i < parts.length ? parts[i] : "";
      }
      boolean binary = f[0].equals("-");
      out.put(path, new int[] {binary ? 0 : Integer.parseInt(f[0]), binary ? 0 : Integer.parseInt(f[1]), binary ? 1 : 0});
    }
    return out;
  }
}
