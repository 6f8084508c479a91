package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.agents.AgentException.Reason;
import dev.agentdesk.agents.AgentStatus.Evidence;
import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.agents.WorktreeDiff.FileChange;
import dev.agentdesk.agents.WorktreeDiff.Status;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionException;
import dev.agentdesk.terminal.session.SessionListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service end to end: real git repositories, real PTYs running the stand-in CLIs, real SQLite. */
class AgentSessionsTest {
  @TempDir Path tmp;
  Standins standins;
  TestRepo repo;
  AgentSessions sessions;
  final List<AgentEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    standins = new Standins(tmp);
    repo = TestRepo.create(tmp, "demo");
    sessions = AgentSessions.open(standins.config(tmp));
    sessions.addListener(events::add);
  }

  @AfterEach
  void tearDown() {
    sessions.close();
  }

  private AgentSession await(String id, String what, java.util.function.Predicate<AgentSession> p)
      throws InterruptedException {
    AgentSession[] last = new AgentSession[1];
    try {
      Standins.await(what, () -> p.test(last[0] = sessions.get(id)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; last: " + last[0] + "\nscreen:\n"
          + sessions.terminal(id).map(t -> String.join("\n", t.screen().lines())).orElse("(not running)"), e);
    }
    return last[0];
  }

  @Test
  void claudeInAWorktreeEditsAsksIsAnsweredLinksItsTranscriptAndMergesFastForward() throws Exception {
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("notes").withPrompt("add notes"));
    assertThat(s.worktree()).isEqualTo(tmp.resolve("worktrees/demo/notes").toRealPath());
    assertThat(s.branch()).isEqualTo("agentdesk/notes");
    assertThat(s.base()).isEqualTo("main");
    assertThat(s.baseCommit()).isEqualTo(repo.head());
    assertThat(s.argv()).containsSubsequence("--session-id", s.launchId()).endsWith("add notes");
    assertThat(s.argv().get(0)).isEqualTo(standins.bin.resolve("claude").toString());
    assertThat(s.lifecycle()).isEqualTo(Lifecycle.RUNNING);

    // the stand-in asked with AskUserQuestion and shows the menu: both signals say awaiting
    AgentSession asking = await(s.id(), "the question", x -> x.status().awaitingInput() && x.transcript() != null);
    assertThat(asking.status().question()).isEqualTo("Which database should I use?");
    assertThat(asking.status().evidence()).isIn(Evidence.CHOICE_MENU, Evidence.TRANSCRIPT_QUESTION);
    assertThat(asking.transcript().provider()).isEqualTo("claude");
    assertThat(asking.transcript().sessionId()).isEqualTo(s.launchId());
    assertThat(asking.transcript().path().getFileName().toString()).isEqualTo(s.launchId() + ".jsonl");
    assertThat(asking.transcriptStatus()).isEqualTo(TranscriptStatus.LINKED);

    WorktreeDiff d = sessions.diff(s.id());
    assertThat(d.files()).containsExactly(new FileChange("agent.txt", null, Status.ADDED, 1, 0, false));
    assertThat(d.patch()).contains("+edited by claude: add notes");
    assertThat(d.base()).isEqualTo("main");

    await(s.id(), "the menu on screen", x -> x.terminal() != null && x.terminal().choicePrompt() != null);
    assertThatThrownBy(() -> sessions.answer(s.id(), 7)).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.BAD_ANSWER);
    sessions.answer(s.id(), 2);
    AgentSession done = await(s.id(), "the end of the turn", x -> !x.status().awaitingInput()
        && Files.exists(x.transcript().path()) && read(x.transcript().path()).contains("Done: add notes with PostgreSQL"));
    assertThat(done.status().phase()).isIn(Phase.BUSY, Phase.IDLE);
    await(s.id(), "tokens", x -> x.tokens() != null && x.tokens().output() > 0);

    sessions.send(s.id(), "one more");
    await(s.id(), "the second edit", x -> {
      try {
        return Files.readString(x.worktree().resolve("agent.txt")).contains("one more");
      } catch (java.io.IOException e) {
        return false;
      }
    });
    assertThat(sessions.diff(s.id()).files()).containsExactly(
        new FileChange("agent.txt", null, Status.ADDED, 2, 0, false));

    MergeResult m = sessions.merge(s.id());
    assertThat(m.kind()).isEqualTo(MergeResult.Kind.FAST_FORWARD);
    assertThat(m.committedWork()).isNotNull();
    assertThat(repo.read("agent.txt")).isEqualTo("edited by claude: add notes\nedited by claude: one more\n");
    assertThat(repo.status()).isEmpty();

    sessions.discard(s.id());
    assertThat(s.worktree()).doesNotExist();
    assertThat(repo.branches()).doesNotContain("agentdesk/notes");
    assertThat(tmp.resolve("worktrees/demo")).doesNotExist();
    assertThat(sessions.list()).isEmpty();
    assertThatThrownBy(() -> sessions.get(s.id())).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.UNKNOWN_SESSION);
    assertThat(events).anySatisfy(e -> assertThat(e).isEqualTo(new AgentEvent.Removed(s.id())));
    assertThat(events).filteredOn(e -> e instanceof AgentEvent.Changed c && c.session().status().awaitingInput())
        .isNotEmpty();
  }

  @Test
  void codexIsLinkedByItsRolloutsCwdAndStartTimeNotByAnOlderOrForeignRollout() throws Exception {
    Path worktreeToBe = tmp.resolve("worktrees/demo/fix");
    Path day = standins.home.resolve(".codex/sessions/" + java.time.LocalDate.now().toString().replace('-', '/'));
    Files.createDirectories(day);
    // a rollout of another folder started now, and one of this folder started an hour ago
    Files.writeString(day.resolve("rollout-x-11111111-1111-4111-8111-111111111111.jsonl"),
        meta("11111111-1111-4111-8111-111111111111", java.time.Instant.now().plusSeconds(1), tmp.resolve("elsewhere")));
    Files.createDirectories(worktreeToBe.getParent());
    Files.writeString(day.resolve("rollout-y-22222222-2222-4222-8222-222222222222.jsonl"),
        meta("22222222-2222-4222-8222-222222222222", java.time.Instant.now().minusSeconds(3600), worktreeToBe));

    AgentSession s = sessions.start(AgentSpec.of(AgentType.CODEX, repo.top).withWorktree("fix").withPrompt("fix it"));
    assertThat(s.argv()).endsWith("fix it").doesNotContain("--session-id");
    AgentSession linked = await(s.id(), "the rollout", x -> x.transcript() != null);
    assertThat(linked.transcript().provider()).isEqualTo("codex");
    assertThat(linked.transcript().sessionId()).isNotIn("11111111-1111-4111-8111-111111111111",
        "22222222-2222-4222-8222-222222222222");
    assertThat(linked.transcript().path().getFileName().toString()).endsWith(linked.transcript().sessionId() + ".jsonl");
    await(s.id(), "the edit", x -> Files.exists(x.worktree().resolve("agent.txt")));
    await(s.id(), "tokens", x -> x.tokens() != null && x.tokens().input() == 100);

    // ended, then resumed with `codex resume <id>` in the same worktree, same record
    sessions.stop(s.id());
    assertThat(sessions.get(s.id()).lifecycle()).isEqualTo(Lifecycle.ENDED);
    assertThat(sessions.get(s.id()).status().phase()).isEqualTo(Phase.ENDED);
    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("resume", linked.transcript().sessionId());
    assertThat(resumed.lifecycle()).isEqualTo(Lifecycle.RUNNING);
    await(s.id(), "the resumed screen", x -> x.terminal() != null
        && String.join("\n", sessions.terminal(s.id()).orElseThrow().screen().lines()).contains("Resumed session"));
    assertThat(sessions.get(s.id()).transcript()).isEqualTo(linked.transcript());
  }

  @Test
  void aMergeCommitWhenTheBaseMovedAConflictRefusedAndADirtyBaseRefused() throws Exception {
    AgentSession a = startAndWaitForEdit("a", "STANDIN_EDIT_FILE", "feature.txt");
    repo.write("user.txt", "user\n");
    repo.commit("user work");
    MergeResult m = sessions.merge(a.id());
    assertThat(m.kind()).isEqualTo(MergeResult.Kind.MERGE_COMMIT);
    assertThat(repo.read("feature.txt")).startsWith("edited by claude");

    AgentSession b = startAndWaitForEdit("b", "STANDIN_EDIT_FILE", "README.md");
    repo.write("README.md", "the user's own line\n");
    String head = repo.commit("user edits README");
    assertThatThrownBy(() -> sessions.merge(b.id())).isInstanceOfSatisfying(AgentException.class, e -> {
      assertThat(e.reason()).isEqualTo(Reason.MERGE_CONFLICT);
      assertThat(e.paths()).containsExactly("README.md");
    });
    assertThat(repo.head()).isEqualTo(head);
    assertThat(repo.status()).isEmpty();

    AgentSession c = startAndWaitForEdit("c", "STANDIN_EDIT_FILE", "c.txt");
    repo.write("README.md", "uncommitted\n");
    assertThatThrownBy(() -> sessions.merge(c.id())).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.BASE_DIRTY);
    assertThat(repo.head()).isEqualTo(head);
    assertThat(repo.read("README.md")).isEqualTo("uncommitted\n");
  }

  private AgentSession startAndWaitForEdit(String name, String envName, String file) throws Exception {
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree(name).withPrompt("work on " + name)
        .withEnv(envName, file).withEnv("STANDIN_NO_QUESTION", "1"));
    await(s.id(), "the turn's end", x -> x.transcript() != null && read(x.transcript().path()).contains("turn_duration"));
    return s;
  }

  @Test
  void aFailedStartLeavesNoWorktreeBranchOrFolder() throws Exception {
    assertThatThrownBy(() -> AgentType.named("nope")).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.UNKNOWN_AGENT);
    Path plain = Files.createDirectories(tmp.resolve("plain"));
    assertThatThrownBy(() -> sessions.start(AgentSpec.of(AgentType.CLAUDE, plain)))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.NOT_A_REPOSITORY);
    assertThatThrownBy(() -> sessions.start(AgentSpec.of(AgentType.GEMINI, repo.top).withWorktree("x")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.COMMAND_NOT_FOUND);
    assertThatThrownBy(() -> sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withCommand("/nonexistent/claude")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.COMMAND_NOT_FOUND);
    assertThatThrownBy(() -> sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withBase("no-such-ref")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.UNKNOWN_REF);
    assertThat(tmp.resolve("worktrees")).doesNotExist();

    // a PTY that fails after the worktree was made: everything is rolled back
    try (AgentSessions failing = AgentSessions.open(standins.config(tmp).withHost((spec, l) -> {
      throw new SessionException(SessionException.Reason.IO, "no PTY left");
    }))) {
      assertThatThrownBy(() -> failing.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("doomed")))
          .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.SPAWN_FAILED);
      assertThat(failing.list()).isEmpty();
    }
    assertThat(tmp.resolve("worktrees")).doesNotExist();
    assertThat(repo.branches().strip()).isEqualTo("main");
    assertThat(repo.git("worktree", "list").strip().lines()).hasSize(1);

    sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("taken").withEnv("STANDIN_NO_QUESTION", "1"));
    assertThatThrownBy(() -> sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("taken")))
        .extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.WORKTREE_EXISTS);
    assertThat(sessions.list()).hasSize(1);
  }

  /**
   * CI caught an agent whose program had exited (its terminal said so) listed as running for good:
   * the exit reached the agent before {@code start} had bound the new session to it, and the
   * binding wrote the row from before over it (the PTY's {@code isRunning()} turns false only after
   * its listeners heard the exit). The host here holds the exit exactly in that window.
   */
  @Test
  void aProgramThatExitsBeforeItsStartReturnsEndsItsSession() throws Exception {
    CountDownLatch exitHeard = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TerminalHost direct = TerminalHost.direct();
    TerminalHost holding = (spec, listener) -> {
      TerminalHost.Started started = direct.start(spec, new SessionListener() {
        @Override
        public void onOutput(byte[] chunk) {
          listener.onOutput(chunk);
        }

        @Override
        public void onEvent(SessionEvent event) {
          listener.onEvent(event);
          if (event instanceof SessionEvent.Exited) {
            exitHeard.countDown();
            try {
              release.await(20, TimeUnit.SECONDS); // the PTY still counts as running meanwhile
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        }
      });
      try {
        assertThat(exitHeard.await(20, TimeUnit.SECONDS)).as("the program's exit reached its agent").isTrue();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return started;
    };
    try (AgentSessions quick = AgentSessions.open(standins.config(tmp).withHost(holding))) {
      AgentSession s = quick.start(AgentSpec.of(AgentType.COMMAND, repo.top).withInPlace(true)
          .withArgs(List.of("sh", "-c", "exit 0")));
      release.countDown();
      assertThat(s.lifecycle()).isEqualTo(Lifecycle.ENDED);
      assertThat(quick.get(s.id()).lifecycle()).isEqualTo(Lifecycle.ENDED);
    }
  }

  @Test
  void aRestartKeepsTheLinkAndResumesClaudeWithResumeInTheSameWorktree() throws Exception {
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("keep").withPrompt("first")
        .withEnv("STANDIN_NO_QUESTION", "1"));
    AgentSession linked = await(s.id(), "the link", x -> x.transcript() != null);
    sessions.close();

    sessions = AgentSessions.open(standins.config(tmp));
    AgentSession after = sessions.get(s.id());
    assertThat(after.lifecycle()).isEqualTo(Lifecycle.ENDED);
    assertThat(after.transcript()).isEqualTo(linked.transcript());
    assertThat(after.transcriptStatus()).isEqualTo(TranscriptStatus.LINKED);
    assertThat(after.worktree()).isEqualTo(s.worktree());
    assertThat(after.createdAt()).isEqualTo(s.createdAt());
    assertThat(after.terminal()).isNull();
    assertThatThrownBy(() -> sessions.send(s.id(), "hello")).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.WRONG_STATE);

    AgentSession resumed = sessions.resume(s.id());
    assertThat(resumed.argv()).containsSubsequence("--resume", s.launchId()).doesNotContain("--session-id");
    assertThat(resumed.id()).isEqualTo(s.id());
    await(s.id(), "the resumed screen", x -> x.terminal() != null && screen(s.id()).contains("Resumed conversation"));
    sessions.send(s.id(), "second");
    await(s.id(), "the resumed turn in the same file", x -> read(linked.transcript().path()).contains("Done: second"));
    assertThat(sessions.get(s.id()).transcript()).isEqualTo(linked.transcript());
    assertThatThrownBy(() -> sessions.resume(s.id())).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.WRONG_STATE);
  }

  @Test
  void aWorktreeDeletedBehindOurBackIsATypedStateAndCanStillBeDiscarded() throws Exception {
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withWorktree("gone")
        .withEnv("STANDIN_NO_QUESTION", "1"));
    sessions.stop(s.id());
    GitWorktreeTest.deleteTree(s.worktree());
    AgentSession missing = sessions.get(s.id());
    assertThat(missing.lifecycle()).isEqualTo(Lifecycle.WORKTREE_MISSING);
    assertThat(missing.status().phase()).isEqualTo(Phase.WORKTREE_MISSING);
    for (org.assertj.core.api.ThrowableAssert.ThrowingCallable op : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
        () -> sessions.diff(s.id()), () -> sessions.merge(s.id()), () -> sessions.resume(s.id()))) {
      assertThatThrownBy(op).extracting(e -> ((AgentException) e).reason()).isEqualTo(Reason.WORKTREE_MISSING);
    }
    // the state is stored: a new service sees it too
    sessions.close();
    sessions = AgentSessions.open(standins.config(tmp));
    assertThat(sessions.get(s.id()).lifecycle()).isEqualTo(Lifecycle.WORKTREE_MISSING);
    sessions.discard(s.id());
    assertThat(repo.branches()).doesNotContain("agentdesk/gone");
    assertThat(repo.git("worktree", "list")).doesNotContain("gone");
  }

  @Test
  void aTranscriptThatNeverAppearsIsAStateNotAnError() throws Exception {
    Path silent = standins.bin.resolve("silent-claude");
    Files.writeString(silent, "#!/bin/sh\necho 'a claude that writes nothing'\nexec cat\n");
    silent.toFile().setExecutable(true);
    sessions.close();
    sessions = AgentSessions.open(standins.config(tmp).withTranscriptTimeout(java.time.Duration.ofMillis(500)));
    AgentSession s = sessions.start(AgentSpec.of(AgentType.CLAUDE, repo.top).withCommand(silent.toString()));
    assertThat(s.transcriptStatus()).isEqualTo(TranscriptStatus.SEARCHING);
    assertThat(s.transcript()).isNull();
    AgentSession late = await(s.id(), "not_found", x -> x.transcriptStatus() == TranscriptStatus.NOT_FOUND);
    assertThat(late.transcript()).isNull();
    assertThat(late.lifecycle()).isEqualTo(Lifecycle.RUNNING);

    AgentSession cmd = sessions.start(AgentSpec.of(AgentType.COMMAND, repo.top).withInPlace(true)
        .withArgs(List.of("sh", "-c", "echo hi > inplace.txt; exec cat")));
    assertThat(cmd.transcriptStatus()).isEqualTo(TranscriptStatus.UNSUPPORTED);
    assertThat(cmd.worktree()).isEqualTo(repo.top);
    assertThat(cmd.branch()).isEqualTo("main");
    Standins.await("the in-place edit", () -> Files.exists(repo.top.resolve("inplace.txt")));
    assertThat(sessions.diff(cmd.id()).files()).extracting(FileChange::path).containsExactly("inplace.txt");
    assertThat(repo.status()).contains("?? inplace.txt"); // the user's index is untouched
    assertThatThrownBy(() -> sessions.merge(cmd.id())).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.NO_BASE_BRANCH);
    assertThatThrownBy(() -> sessions.resume(cmd.id())).extracting(e -> ((AgentException) e).reason())
        .isEqualTo(Reason.WRONG_STATE);
    sessions.discard(cmd.id()); // in place: forgotten, the checkout stays
    assertThat(repo.top.resolve("inplace.txt")).exists();
  }

  private String screen(String id) {
    return sessions.terminal(id).map(t -> String.join("\n", t.screen().lines())).orElse("");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static String meta(String id, java.time.Instant start, Path cwd) {
    return "{\"timestamp\":\"" + start + "\",\"type\":\"session_meta\",\"payload\":{\"id\":\"" + id
        + "\",\"timestamp\":\"" + start + "\",\"cwd\":\"" + cwd + "\",\"originator\":\"codex_cli_rs\"}}\n";
  }

  /**
   * Aider keeps every start of it in one .aider.chat.history.md: the session links the part its
   * aider started (not the whole file, which no parse can take as one session), and its tokens are
   * that session's alone.
   */
  @Test
  void aiderIsLinkedToTheSessionItStartedInAHistoryFileOfSeveral() throws Exception {
    // a project that keeps its aider history in git: the worktree starts with an earlier session
    repo.write(".aider.chat.history.md", "\n# aider chat started at 2026-03-02 09:15:04\n\n#### an old prompt  \n\n"
        + "Old reply.\n\n> Tokens: 5.0k sent, 900 received.  \n\n");
    repo.commit("aider history");
    AgentSession s = sessions.start(AgentSpec.of(AgentType.AIDER, repo.top).withWorktree("aider").withPrompt("add a retry"));
    AgentSession linked = await(s.id(), "linked and counted", x -> x.transcript() != null && x.tokens() != null
        && x.tokens().output() == 60);
    assertThat(linked.transcript().provider()).isEqualTo("aider");
    assertThat(linked.transcript().path().toString())
        .startsWith(linked.worktree().resolve(".aider.chat.history.md") + "#aider-");
    assertThat(linked.transcript().sessionId()).isNotEqualTo(".aider").doesNotEndWith("20260302T091504");
    assertThat(linked.tokens()).isEqualTo(new dev.agentdesk.transcripts.records.TokenUsage(950, 60, 0, 0));
    sessions.stop(s.id());
  }
}
