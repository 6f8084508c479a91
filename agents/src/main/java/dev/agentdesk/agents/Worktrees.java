package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentException.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Repositories and worktrees through the git CLI. A new worktree is
 * {@code git worktree add -b agentdesk/<name> <root>/<repo-name>/<name> <base-commit>}; every
 * failure after something was made undoes it (folder, branch, parent folders we created), so a
 * failed start leaves nothing behind. The user's main checkout is only read here.
 */
final class Worktrees {
  /** Branches agentdesk creates live under this prefix. */
  static final String BRANCH_PREFIX = "agentdesk/";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /** A repository: its top folder (main checkout) and the name used for its worktree folder. */
  record Repo(Path top, String name) {}

  /** The commit a worktree starts from and, when it is a branch, the branch (the merge target). */
  record Base(String ref, String commit, String branch) {}

  /** A worktree agentdesk made, and the folders it created for it (undone by {@link #remove}). */
  record Created(Path folder, String branch, List<Path> madeParents) {}

  private final Git git;

  Worktrees(Git git) {
    this.git = git;
  }

  /**
   * The repository {@code folder} belongs to. A folder inside a linked worktree resolves to the
   * main checkout, so worktrees of worktrees are not nested.
   */
  Repo open(Path folder) {
    if (!Files.isDirectory(folder)) {
      throw new AgentException(Reason.NOT_A_REPOSITORY, folder + " is not a folder");
    }
    Git.Result top = git.run(folder, "rev-parse", "--show-toplevel");
    Git.Result common = git.run(folder, "rev-parse", "--path-format=absolute", "--git-common-dir");
    if (!top.ok() || !common.ok() || top.firstLine().isEmpty()) {
      throw new AgentException(Reason.NOT_A_REPOSITORY,
          folder + " is not in a git work tree (git init it, or pick the repository's folder)");
    }
    Path commonDir = Path.of(common.firstLine());
    // The main checkout is the parent of the common .git folder; for a linked worktree that is
    // the repository, not the worktree.
    Path main = commonDir.getFileName() != null && commonDir.getFileName().toString().equals(".git")
        ? commonDir.getParent() : Path.of(top.firstLine());
    return new Repo(real(main), main.getFileName().toString());
  }

  /** {@code ref} (or the repository's HEAD when empty) as a commit, with its branch if it is one. */
  Base base(Repo repo, Optional<String> ref) {
    if (ref.isPresent()) {
      String r = ref.get();
      if (r.isBlank() || r.startsWith("-")) {
        throw new AgentException(Reason.UNKNOWN_REF, "base ref '" + r + "' is not a ref");
      }
      Git.Result c = git.run(repo.top(), "rev-parse", "--verify", "--quiet", "--end-of-options", r + "^{commit}");
      if (!c.ok()) {
        throw new AgentException(Reason.UNKNOWN_REF, "base ref '" + r + "' does not name a commit in " + repo.top());
      }
      boolean branch = git.run(repo.top(), "show-ref", "--verify", "--quiet", "refs/heads/" + r).ok();
      return new Base(r, c.firstLine(), branch ? r : null);
    }
    Git.Result head = git.run(repo.top(), "rev-parse", "--verify", "--quiet", "HEAD^{commit}");
    if (!head.ok()) {
      throw new AgentException(Reason.UNKNOWN_REF, repo.top() + " has no commit yet: commit something first");
    }
    Git.Result branch = git.run(repo.top(), "symbolic-ref", "--short", "-q", "HEAD");
    String b = branch.ok() ? branch.firstLine() : null;
    return new Base(b != null ? b : head.firstLine(), head.firstLine(), b);
  }

  /** Checks a worktree name: one path element git accepts in a branch name. */
  static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches() || name.contains("..") || name.endsWith(".lock")
        || name.endsWith(".")) {
      throw new AgentException(Reason.INVALID_SPEC, "worktree name '" + name
          + "' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
  }

  /** Where the worktree {@code name} of {@code repo} goes under {@code root}. */
  static Path folder(Path root, Repo repo, String name) {
    return root.resolve(repo.name()).resolve(name);
  }

  /**
   * Creates the worktree {@code name} on the new branch {@code agentdesk/<name>} at the base commit.
   *
   * @throws AgentException {@code WORKTREE_EXISTS} when the folder or the branch exists, {@code GIT_FAILED}
   *     when git refuses (nothing is left behind)
   */
  Created create(Path root, Repo repo, String name, Base base) {
    checkName(name);
    Path folder = folder(root, repo, name);
    String branch = BRANCH_PREFIX + name;
    if (Files.exists(folder)) {
      throw new AgentException(Reason.WORKTREE_EXISTS, "worktree folder " + folder + " already exists");
    }
    if (git.run(repo.top(), "show-ref", "--verify", "--quiet", "refs/heads/" + branch).ok()) {
      throw new AgentException(Reason.WORKTREE_EXISTS, "branch " + branch + " already exists in " + repo.top()
          + " (pick another worktree name, or discard the old session)");
    }
    List<Path> made = new ArrayList<>();
    try {
      for (Path p = folder.getParent(); p != null && !Files.exists(p); p = p.getParent()) {
        made.add(0, p);
      }
      for (Path p : made) {
        Files.createDirectory(p);
      }
    } catch (IOException e) {
      deleteEmpty(made);
      throw new AgentException(Reason.GIT_FAILED, "cannot create " + folder.getParent() + ": " + e.getMessage(), e);
    }
    Created created = new Created(folder, branch, List.copyOf(made));
    Git.Result r = git.run(repo.top(), "worktree", "add", "-b", branch, folder.toString(), base.commit());
    if (!r.ok()) {
      remove(repo, created);
      throw Git.failed(r, "worktree", "add", "-b", branch, folder.toString(), base.commit());
    }
    return new Created(real(folder), branch, created.madeParents());
  }

  /**
   * Removes a worktree and its branch, whatever is left of them: a folder deleted behind our back
   * is pruned from git's list; an absent branch is fine. Parent folders agentdesk made are removed
   * when empty. Returns problems (empty when all went).
   */
  List<String> remove(Repo repo, Created c) {
    List<String> problems = new ArrayList<>();
    if (Files.exists(c.folder())) {
      Git.Result r = git.run(repo.top(), "worktree", "remove", "--force", "--force", c.folder().toString());
      if (!r.ok()) {
        problems.add(r.err().strip());
      }
    }
    git.run(repo.top(), "worktree", "prune");
    if (c.branch() != null && git.run(repo.top(), "show-ref", "--verify", "--quiet", "refs/heads/" + c.branch()).ok()) {
      Git.Result b = git.run(repo.top(), "branch", "-D", c.branch());
      if (!b.ok()) {
        problems.add(b.err().strip());
      }
    }
    deleteEmpty(c.madeParents());
    return problems;
  }

  private static void deleteEmpty(List<Path> parents) {
    for (int i = parents.size() - 1; i >= 0; i--) {
      try {
        Files.deleteIfExists(parents.get(i));
      } catch (IOException e) {
        // not empty (another worktree lives there) or already gone: leave it
      }
    }
  }

  static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }
}
