package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentException.Reason;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Merges an agent's branch into its base branch. This is the one place agentdesk writes to the
 * user's checkout, and only on an explicit request.
 *
 * <ul>
 *   <li>The agent's uncommitted work is committed in its worktree first ("agentdesk: uncommitted
 *       work of …"): the diff the user reviewed includes it, so merging without it would merge
 *       something else than what was shown.</li>
 *   <li>Base branch checked out in some worktree (usually the main checkout): refused when that
 *       checkout has staged or unstaged changes to tracked files; then {@code git merge --ff-only},
 *       else {@code git merge --no-ff}; a conflict is aborted ({@code git merge --abort}) so the
 *       checkout is as it was, and reported with the conflicting paths.</li>
 *   <li>Base branch not checked out anywhere: no working tree to update, so the merge is done on
 *       objects ({@code git merge-tree --write-tree}, {@code commit-tree}) and the ref moves with
 *       {@code update-ref} guarded by its old value.</li>
 * </ul>
 */
final class Merges {
  private final Git git;

  Merges(Git git) {
    this.git = git;
  }

  MergeResult merge(Path repoTop, Path worktree, String branch, String baseBranch, String sessionLabel) {
    if (baseBranch == null) {
      throw new AgentException(Reason.NO_BASE_BRANCH,
          "the session's base is a commit, not a branch: merge " + branch + " yourself");
    }
    if (!git.run(repoTop, "show-ref", "--verify", "--quiet", "refs/heads/" + baseBranch).ok()) {
      throw new AgentException(Reason.NO_BASE_BRANCH, "base branch " + baseBranch + " no longer exists");
    }
    Git id = git.with(identity(repoTop));
    Path checkout = checkedOutAt(repoTop, baseBranch);
    if (checkout != null) {
      List<String> dirty = changedTracked(checkout);
      if (!dirty.isEmpty()) {
        throw new AgentException(Reason.BASE_DIRTY, "the base checkout " + checkout + " has uncommitted changes ("
            + String.join(", ", dirty.subList(0, Math.min(5, dirty.size()))) + (dirty.size() > 5 ? ", …" : "")
            + "): commit or stash them, then merge again", dirty, null);
      }
    }
    String committed = commitWork(id, worktree, sessionLabel);
    String tip = git.check(repoTop, "rev-parse", "--verify", "refs/heads/" + branch).strip();
    String old = git.check(repoTop, "rev-parse", "--verify", "refs/heads/" + baseBranch).strip();
    if (git.run(repoTop, "merge-base", "--is-ancestor", tip, old).ok()) {
      return new MergeResult(MergeResult.Kind.UP_TO_DATE, baseBranch, old, committed);
    }
    String message = "Merge " + branch + " (" + sessionLabel + ")";
    return checkout != null
        ? mergeInCheckout(id, checkout, branch, baseBranch, message, committed)
        : mergeOnObjects(id, repoTop, tip, old, baseBranch, message, committed);
  }

  private MergeResult mergeInCheckout(Git id, Path checkout, String branch, String baseBranch, String message,
      String committed) {
    Git.Result ff = id.run(checkout, "merge", "--ff-only", "--no-edit", branch);
    if (ff.ok()) {
      return new MergeResult(MergeResult.Kind.FAST_FORWARD, baseBranch, head(checkout), committed);
    }
    Git.Result m = id.run(checkout, "merge", "--no-ff", "--no-edit", "-m", message, branch);
    if (m.ok()) {
      return new MergeResult(MergeResult.Kind.MERGE_COMMIT, baseBranch, head(checkout), committed);
    }
    List<String> conflicts = lines(git.run(checkout, "diff", "--name-only", "--diff-filter=U").out());
    boolean merging = git.run(checkout, "rev-parse", "-q", "--verify", "MERGE_HEAD").ok();
    if (merging) {
      Git.Result abort = git.run(checkout, "merge", "--abort");
      if (!abort.ok()) {
        throw new AgentException(Reason.GIT_FAILED, "merge failed and git merge --abort failed too in " + checkout
            + ": " + abort.err().strip());
      }
    }
    if (!conflicts.isEmpty()) {
      throw new AgentException(Reason.MERGE_CONFLICT, branch + " conflicts with " + baseBranch + " in "
          + String.join(", ", conflicts) + "; nothing was merged (resolve in the worktree, e.g. merge "
          + baseBranch + " into it, then merge again)", conflicts, null);
    }
    // git refused before starting (e.g. untracked files in the checkout would be overwritten).
    throw new AgentException(Reason.BASE_DIRTY, "git refused to merge into " + checkout + ": "
        + (m.err().strip().isEmpty() ? m.out().strip() : m.err().strip()));
  }

  private MergeResult mergeOnObjects(Git id, Path repoTop, String tip, String old, String baseBranch, String message,
      String committed) {
    if (git.run(repoTop, "merge-base", "--is-ancestor", old, tip).ok()) {
      git.check(repoTop, "update-ref", "-m", "agentdesk: fast-forward", "refs/heads/" + baseBranch, tip, old);
      return new MergeResult(MergeResult.Kind.FAST_FORWARD, baseBranch, tip, committed);
    }
    Git.Result mt = git.run(repoTop, "merge-tree", "--write-tree", "--name-only", "--no-messages", old, tip);
    List<String> out = lines(mt.out());
    if (mt.exit() == 1) {
      List<String> conflicts = out.size() > 1 ? out.subList(1, out.size()) : List.of();
      throw new AgentException(Reason.MERGE_CONFLICT, "conflicts with " + baseBranch + " in "
          + String.join(", ", conflicts) + "; nothing was merged", conflicts, null);
    }
    if (!mt.ok() || out.isEmpty()) {
      throw Git.failed(mt, "merge-tree", "--write-tree", old, tip);
    }
    String commit = id.check(repoTop, "commit-tree", out.get(0), "-p", old, "-p", tip, "-m", message).strip();
    git.check(repoTop, "update-ref", "-m", "agentdesk: merge", "refs/heads/" + baseBranch, commit, old);
    return new MergeResult(MergeResult.Kind.MERGE_COMMIT, baseBranch, commit, committed);
  }

  /** Commits everything the agent left uncommitted in its worktree; null when it left nothing. */
  private String commitWork(Git id, Path worktree, String label) {
    if (git.check(worktree, "status", "--porcelain", "-z", "--untracked-files=all").isEmpty()) {
      return null;
    }
    id.check(worktree, "add", "-A", "--", ".");
    id.check(worktree, "commit", "--no-verify", "-q", "-m", "agentdesk: uncommitted work of " + label);
    return head(worktree);
  }

  /** Where {@code branch} is checked out (a worktree folder), or null. */
  Path checkedOutAt(Path repoTop, String branch) {
    Path dir = null;
    for (String line : lines(git.check(repoTop, "worktree", "list", "--porcelain"))) {
      if (line.startsWith("worktree ")) {
        dir = Path.of(line.substring("worktree ".length()));
      } else if (line.equals("branch refs/heads/" + branch) && dir != null) {
        return dir;
      }
    }
    return null;
  }

  /** Tracked files with staged or unstaged changes (untracked files do not block a merge). */
  List<String> changedTracked(Path checkout) {
    List<String> out = new ArrayList<>();
    for (String e : git.check(checkout, "status", "--porcelain", "-z", "--untracked-files=no").split("\0")) {
      if (e.length() > 3) {
        out.add(e.substring(3));
      }
    }
    return out;
  }

  private String head(Path dir) {
    return git.check(dir, "rev-parse", "HEAD").strip();
  }

  /**
   * An author for the commits agentdesk makes when the repository has none configured, so a
   * merge never fails on "Please tell me who you are"; a configured identity is left alone.
   */
  private Map<String, String> identity(Path repoTop) {
    boolean hasName = git.run(repoTop, "config", "user.name").ok();
    boolean hasEmail = git.run(repoTop, "config", "user.email").ok();
    if (hasName && hasEmail) {
      return Map.of();
    }
    return Map.of("GIT_AUTHOR_NAME", "agentdesk", "GIT_AUTHOR_EMAIL", "agentdesk@localhost",
        "GIT_COMMITTER_NAME", "agentdesk", "GIT_COMMITTER_EMAIL", "agentdesk@localhost");
  }

  private static List<String> lines(String s) {
    return Arrays.stream(s.split("\n")).map(String::strip).filter(l -> !l.isEmpty()).toList();
  }
}
