package dev.agentdesk.agents;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The stored part of an agent session: everything that must survive a restart. The live part
 * (terminal state, status, tokens) is added by the service.
 *
 * @param madeFolders folders agentdesk created for the worktree (removed on discard when empty)
 * @param spawnedAt when the agent process was last started (the transcript search looks after it)
 */
record SessionRow(String id, AgentType agent, String name, Path repo, Path worktree, String branch, String base,
    String baseCommit, String baseBranch, boolean inPlace, List<String> argv, List<String> extraArgs, String launchId,
    String terminalId, TranscriptLink transcript, TranscriptStatus transcriptStatus, Lifecycle lifecycle,
    List<Path> madeFolders, Instant createdAt, Instant lastActivityAt, Instant spawnedAt) {

  SessionRow {
    argv = List.copyOf(argv);
    extraArgs = List.copyOf(extraArgs);
    madeFolders = List.copyOf(madeFolders);
  }

  SessionRow withTerminal(String id2, List<String> newArgv, Instant spawned) {
    return new SessionRow(id, agent, name, repo, worktree, branch, base, baseCommit, baseBranch, inPlace, newArgv,
        extraArgs, launchId, id2, transcript, transcriptStatus, Lifecycle.RUNNING, madeFolders, createdAt, spawned,
        spawned);
  }

  SessionRow withTranscript(TranscriptLink link, TranscriptStatus status) {
    return new SessionRow(id, agent, name, repo, worktree, branch, base, baseCommit, baseBranch, inPlace, argv,
        extraArgs, launchId, terminalId, link, status, lifecycle, madeFolders, createdAt, lastActivityAt, spawnedAt);
  }

  SessionRow withLifecycle(Lifecycle l) {
    return new SessionRow(id, agent, name, repo, worktree, branch, base, baseCommit, baseBranch, inPlace, argv,
        extraArgs, launchId, terminalId, transcript, transcriptStatus, l, madeFolders, createdAt, lastActivityAt,
        spawnedAt);
  }

  SessionRow withActivity(Instant at) {
    return new SessionRow(id, agent, name, repo, worktree, branch, base, baseCommit, baseBranch, inPlace, argv,
        extraArgs, launchId, terminalId, transcript, transcriptStatus, lifecycle, madeFolders, createdAt, at,
        spawnedAt);
  }
}
