package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.agents.AgentException.Reason;
import dev.agentdesk.agents.WorktreeDiff.FileChange;
import dev.agentdesk.agents.WorktreeDiff.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Worktrees, diffs and merges on real git repositories. */
class GitWorktreeTest {
  @TempDir Path tmp;
  TestRepo repo;
  Path root;
  final Git git = new Git();
  final Worktrees worktrees = new Worktrees(git);
  final Diffs diffs = new Diffs(git);
  final Merges merges = new Merges(git);
  Worktrees.Repo r;

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp, "demo");
    root = tmp.resolve("wt-root");
    r = worktrees.open(repo.top);
  }

  @Test
  @org.junit.jupiter.api.Timeout(60) // before the fix git's output was read to its end first: forever
  void aHookThatHangsIsStoppedWithItsChildrenAndSaysSo() throws Exception {
    // post-checkout runs on 'git worktree add'; this one writes to stdout and then never ends.
    Path hook = repo.top.resolve(".git/hooks/post-checkout");
    Path pidFile = tmp.resolve("hook.pid");
    Files.writeString(hook, "#!/bin/sh\necho checking out\nsleep 600 &\necho $! > " + pidFile + "\nwait\n");
    hook.toFile().setExecutable(true);
    Worktrees quick = new Worktrees(new Git("git", java.util.Map.of(), java.time.Duration.ofSeconds(2)));
    long start = System.nanoTime();
    assertThatThrownBy(() -> quick.create(root, r, "hangs", quick.base(r, Optional.empty())))
        .isInstanceOf(AgentException.class)
        .hasMessageContaining("did not finish within 2 s").hasMessageContaining("hook")
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.GIT_FAILED);
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(15));
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the hook's child is stopped")
        .isFalse();
    // and the next command runs at once
    Files.delete(hook);
    assertThat(quick.create(root, r, "after", quick.base(r, Optional.empty())).folder()).isDirectory();
  }

  @Test
  void aFolderThatIsNotARepositoryIsATypedError() throws Exception {
    Path plain = Files.createDirectories(tmp.resolve("plain"));
    assertThatThrownBy(() -> worktrees.open(plain)).isInstanceOf(AgentException.class)
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.NOT_A_REPOSITORY);
    assertThatThrownBy(() -> worktrees.open(tmp.resolve("absent")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.NOT_A_REPOSITORY);
  }

  @Test
  void aSubfolderAndALinkedWorktreeResolveToTheMainCheckout() throws Exception {
    repo.write("src/a.txt", "a\n");
    assertThat(worktrees.open(repo.top.resolve("src")).top()).isEqualTo(repo.top);
    Worktrees.Created c = worktrees.create(root, r, "one", worktrees.base(r, Optional.empty()));
    assertThat(worktrees.open(c.folder())).isEqualTo(r);
    assertThat(r.name()).isEqualTo("demo");
  }

  @Test
  void newWorktreeOnABranchFromHeadOrFromABaseRef() throws Exception {
    String first = repo.head();
    repo.write("b.txt", "b\n");
    String second = repo.commit("second");
    Worktrees.Base head = worktrees.base(r, Optional.empty());
    assertThat(head).isEqualTo(new Worktrees.Base("main", second, "main"));
    Worktrees.Created c = worktrees.create(root, r, "feat", head);
    assertThat(c.folder()).isEqualTo(root.resolve("demo/feat").toRealPath());
    assertThat(c.branch()).isEqualTo("agentdesk/feat");
    assertThat(repo.gitIn(c.folder(), "rev-parse", "HEAD").strip()).isEqualTo(second);
    assertThat(repo.gitIn(c.folder(), "symbolic-ref", "--short", "HEAD").strip()).isEqualTo("agentdesk/feat");

    Worktrees.Base old = worktrees.base(r, Optional.of(first));
    assertThat(old.branch()).isNull();
    Worktrees.Created c2 = worktrees.create(root, r, "old", old);
    assertThat(repo.gitIn(c2.folder(), "rev-parse", "HEAD").strip()).isEqualTo(first);
    assertThat(Files.exists(c2.folder().resolve("b.txt"))).isFalse();
    // the main checkout is untouched
    assertThat(repo.status()).isEmpty();
    assertThat(repo.git("symbolic-ref", "--short", "HEAD").strip()).isEqualTo("main");
  }

  @Test
  void badRefsNamesAndTakenNamesAreTypedAndLeaveNothing() throws Exception {
    assertThatThrownBy(() -> worktrees.base(r, Optional.of("no-such-branch")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.UNKNOWN_REF);
    assertThatThrownBy(() -> worktrees.base(r, Optional.of("--all")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.UNKNOWN_REF);
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    assertThatThrownBy(() -> worktrees.create(root, r, "../escape", base))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.INVALID_SPEC);
    worktrees.create(root, r, "taken", base);
    assertThatThrownBy(() -> worktrees.create(root, r, "taken", base))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.WORKTREE_EXISTS);
    repo.git("branch", "agentdesk/branch-only");
    assertThatThrownBy(() -> worktrees.create(root, r, "branch-only", base))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.WORKTREE_EXISTS);
    assertThat(root.resolve("demo/branch-only")).doesNotExist();
  }

  @Test
  void aGitFailureAfterTheFoldersWereMadeRollsEverythingBack() throws Exception {
    // A commit that does not exist gets past nothing in git: worktree add fails after we made root/demo.
    Worktrees.Base bogus = new Worktrees.Base("x", "0123456789012345678901234567890123456789", null);
    assertThatThrownBy(() -> worktrees.create(root, r, "bad", bogus))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.GIT_FAILED);
    assertThat(root).doesNotExist();
    assertThat(repo.branches()).doesNotContain("agentdesk/bad");
    assertThat(repo.git("worktree", "list")).doesNotContain("bad");
  }

  @Test
  void removeTakesFolderAndBranchEvenWhenTheFolderWasDeletedBehindOurBack() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created a = worktrees.create(root, r, "a", base);
    Files.writeString(a.folder().resolve("dirty.txt"), "uncommitted\n");
    assertThat(worktrees.remove(r, a)).isEmpty();
    assertThat(a.folder()).doesNotExist();
    assertThat(repo.branches()).doesNotContain("agentdesk/a");

    Worktrees.Created b = worktrees.create(root, r, "b", base);
    deleteTree(b.folder());
    assertThat(worktrees.remove(r, b)).isEmpty();
    assertThat(repo.branches()).doesNotContain("agentdesk/b");
    assertThat(repo.git("worktree", "list")).doesNotContain("/b");
  }

  @Test
  void diffShowsCommittedUncommittedUntrackedDeletedRenamedAndBinaryFilesWithoutTouchingAnyIndex() throws Exception {
    repo.write("keep.txt", "one\ntwo\nthree\n");
    repo.write("gone.txt", "bye\n");
    repo.write("moved.txt", "a long enough line to be recognised as the same file\nsecond line\n");
    repo.write(".gitignore", "*.log\n");
    repo.commit("files");
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "d", base);
    Path w = c.folder();
    Files.writeString(w.resolve("committed.txt"), "c1\nc2\n");
    repo.gitIn(w, "add", "committed.txt");
    repo.gitIn(w, "commit", "-q", "-m", "agent commit");
    Files.writeString(w.resolve("keep.txt"), "one\nTWO\nthree\nfour\n");
    Files.delete(w.resolve("gone.txt"));
    Files.move(w.resolve("moved.txt"), w.resolve("renamed.txt"));
    Files.writeString(w.resolve("new.txt"), "fresh\n");
    Files.write(w.resolve("blob.bin"), new byte[] {0, 1, 2, 0, (byte) 255});
    Files.writeString(w.resolve("noise.log"), "ignored\n");
    Files.writeString(w.resolve("staged.txt"), "s\n");
    repo.gitIn(w, "add", "staged.txt");
    String indexBefore = repo.gitIn(w, "status", "--porcelain");

    WorktreeDiff d = diffs.diff(w, "main", "main", base.commit());
    assertThat(d.fromCommit()).isEqualTo(base.commit());
    assertThat(d.files()).containsExactly(
        new FileChange("blob.bin", null, Status.ADDED, 0, 0, true),
        new FileChange("committed.txt", null, Status.ADDED, 2, 0, false),
        new FileChange("gone.txt", null, Status.DELETED, 0, 1, false),
        new FileChange("keep.txt", null, Status.MODIFIED, 2, 1, false),
        new FileChange("new.txt", null, Status.ADDED, 1, 0, false),
        new FileChange("renamed.txt", "moved.txt", Status.RENAMED, 0, 0, false),
        new FileChange("staged.txt", null, Status.ADDED, 1, 0, false));
    assertThat(d.patch()).contains("diff --git a/keep.txt b/keep.txt", "-two", "+TWO", "+four",
        "rename from moved.txt", "rename to renamed.txt", "Binary files /dev/null and b/blob.bin differ",
        "+fresh").doesNotContain("noise.log");
    // neither the agent's index nor the main checkout changed
    assertThat(repo.gitIn(w, "status", "--porcelain")).isEqualTo(indexBefore);
    assertThat(repo.status()).isEmpty();
  }

  @Test
  void diffIsAgainstTheMergeBaseSoNewBaseCommitsAreNotTheAgents() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "mb", base);
    Files.writeString(c.folder().resolve("agent.txt"), "x\n");
    repo.write("user.txt", "the user kept working\n");
    repo.commit("user work");
    WorktreeDiff d = diffs.diff(c.folder(), "main", "main", base.commit());
    assertThat(d.files()).extracting(FileChange::path).containsExactly("agent.txt");
    deleteTree(c.folder());
    assertThatThrownBy(() -> diffs.diff(c.folder(), "main", "main", base.commit()))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.WORKTREE_MISSING);
  }

  @Test
  void mergeFastForwardsAndCommitsTheAgentsUncommittedWorkFirst() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "ff", base);
    Files.writeString(c.folder().resolve("feature.txt"), "done\n");
    MergeResult m = merges.merge(repo.top, c.folder(), c.branch(), "main", "claude ff");
    assertThat(m.kind()).isEqualTo(MergeResult.Kind.FAST_FORWARD);
    assertThat(m.committedWork()).isNotNull();
    assertThat(m.commit()).isEqualTo(repo.head()).isEqualTo(m.committedWork());
    assertThat(repo.read("feature.txt")).isEqualTo("done\n");
    assertThat(repo.status()).isEmpty();
    assertThat(merges.merge(repo.top, c.folder(), c.branch(), "main", "claude ff").kind())
        .isEqualTo(MergeResult.Kind.UP_TO_DATE);
  }

  @Test
  void mergeMakesAMergeCommitWhenTheBaseMoved() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "mc", base);
    Files.writeString(c.folder().resolve("feature.txt"), "agent\n");
    repo.write("other.txt", "user\n");
    String userHead = repo.commit("user");
    MergeResult m = merges.merge(repo.top, c.folder(), c.branch(), "main", "codex mc");
    assertThat(m.kind()).isEqualTo(MergeResult.Kind.MERGE_COMMIT);
    assertThat(repo.git("rev-list", "--parents", "-n", "1", "HEAD").strip().split(" ")).hasSize(3)
        .contains(userHead);
    assertThat(repo.read("feature.txt")).isEqualTo("agent\n");
    assertThat(repo.read("other.txt")).isEqualTo("user\n");
    assertThat(repo.git("log", "-1", "--format=%s")).contains("Merge agentdesk/mc");
  }

  @Test
  void aConflictIsRefusedAndTheBaseCheckoutIsLeftClean() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "cf", base);
    Files.writeString(c.folder().resolve("README.md"), "agent version\n");
    repo.write("README.md", "user version\n");
    String userHead = repo.commit("user edit");
    assertThatThrownBy(() -> merges.merge(repo.top, c.folder(), c.branch(), "main", "claude cf"))
        .isInstanceOfSatisfying(AgentException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.MERGE_CONFLICT);
          assertThat(e.paths()).containsExactly("README.md");
        });
    assertThat(repo.head()).isEqualTo(userHead);
    assertThat(repo.status()).isEmpty();
    assertThat(repo.read("README.md")).isEqualTo("user version\n");
    assertThat(Files.exists(repo.top.resolve(".git/MERGE_HEAD"))).isFalse();
  }

  @Test
  void aDirtyBaseCheckoutIsRefusedBeforeAnythingHappens() throws Exception {
    Worktrees.Base base = worktrees.base(r, Optional.empty());
    Worktrees.Created c = worktrees.create(root, r, "dirty", base);
    Files.writeString(c.folder().resolve("feature.txt"), "agent\n");
    repo.write("README.md", "half-done user edit\n");
    String head = repo.head();
    assertThatThrownBy(() -> merges.merge(repo.top, c.folder(), c.branch(), "main", "claude dirty"))
        .isInstanceOfSatisfying(AgentException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.BASE_DIRTY);
          assertThat(e.paths()).containsExactly("README.md");
        });
    assertThat(repo.head()).isEqualTo(head);
    assertThat(repo.read("README.md")).isEqualTo("half-done user edit\n");
    // the agent's work was not committed either: refusal comes first
    assertThat(repo.gitIn(c.folder(), "status", "--porcelain")).contains("feature.txt");
  }

  @Test
  void aBaseBranchThatIsNotCheckedOutIsMergedOnObjects() throws Exception {
    repo.git("branch", "release");
    Worktrees.Base base = worktrees.base(r, Optional.of("release"));
    assertThat(base.branch()).isEqualTo("release");
    Worktrees.Created c = worktrees.create(root, r, "rel", base);
    Files.writeString(c.folder().resolve("fix.txt"), "fix\n");
    MergeResult ff = merges.merge(repo.top, c.folder(), c.branch(), "release", "claude rel");
    assertThat(ff.kind()).isEqualTo(MergeResult.Kind.FAST_FORWARD);
    assertThat(repo.git("rev-parse", "release").strip()).isEqualTo(ff.commit());
    // now move release elsewhere so the next merge needs a merge commit
    repo.git("update-ref", "refs/heads/release", repo.git("commit-tree", "HEAD^{tree}", "-p", ff.commit(), "-m", "rel")
        .strip());
    Files.writeString(c.folder().resolve("fix2.txt"), "fix2\n");
    MergeResult mc = merges.merge(repo.top, c.folder(), c.branch(), "release", "claude rel");
    assertThat(mc.kind()).isEqualTo(MergeResult.Kind.MERGE_COMMIT);
    assertThat(repo.git("show", "release:fix2.txt")).isEqualTo("fix2\n");
    assertThat(repo.status()).isEmpty();
    assertThat(repo.git("symbolic-ref", "--short", "HEAD").strip()).isEqualTo("main");
  }

  static void deleteTree(Path p) throws java.io.IOException {
    try (var s = Files.walk(p)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
  }
}
