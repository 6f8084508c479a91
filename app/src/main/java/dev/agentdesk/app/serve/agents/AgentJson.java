package dev.agentdesk.app.serve.agents;

import dev.agentdesk.agents.AgentSession;
import dev.agentdesk.agents.AgentStatus;
import dev.agentdesk.agents.MergeResult;
import dev.agentdesk.agents.WorktreeDiff;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.util.List;

/**
 * The API's view of an agent session (the OpenAPI document's Agent schema). {@code state} is the
 * terminal's state as {@code /api/terminals/{id}} shows it; {@code status} is the agents module's
 * combined status (terminal and transcript, ADR 0016), which decides the badge.
 * {@code transcript} is the stored link; {@code transcript_bytes_read} is live: how much of it this
 * server has read, so a page refetches the transcript when an agent event shows it grew.
 */
public record AgentJson(String id, String agent, String name, String repo, String worktree, String branch,
    String base, String base_commit, String base_branch, boolean in_place, List<String> argv, String terminal_id,
    Transcript transcript, String transcript_status, long transcript_bytes_read, String lifecycle, Status status, Object state, Tokens tokens,
    Double cost_usd, Double agent_cost_usd, String created_at, String last_activity_at) {

  /** {@code earlier}: the files the session went on from (an agent that restarted itself), oldest first; tokens and costs count them. */
  public record Transcript(String provider, String session_id, String path, List<Part> earlier) {}

  public record Part(String session_id, String path) {}

  public record Status(String phase, boolean awaiting_input, String question, Choice choice, String evidence,
      boolean cleared_by_transcript) {}

  /** A menu; {@code numbered} false: answered with the arrow keys and Enter ({@code answer} does that). */
  public record Choice(String title, List<Option> options, boolean numbered) {}

  public record Option(int index, String label, boolean destructive, String description) {}

  public record Tokens(long input, long output, long cache_read, long cache_creation) {}

  /** Diff JSON: {@code base}, {@code files}, {@code patch}. */
  public record Diff(String base, String from_commit, List<File> files, String patch) {}

  public record File(String path, String old_path, String status, int added, int removed, boolean binary) {}

  public record Merge(String kind, String base_branch, String commit, String committed_work) {}

  /**
   * @param terminalState the terminal's state JSON, or null when no terminal of this server runs it
   * @param costUsd what its transcript cost so far, or null while unknown or unpriced
   * @param agentCostUsd what the agent itself recorded it cost, or null (it records none, or not yet)
   */
  static AgentJson of(AgentSession s, Object terminalState, Double costUsd, Double agentCostUsd) {
    Transcript t = s.transcript() == null ? null
        : new Transcript(s.transcript().provider(), s.transcript().sessionId(), s.transcript().path().toString(),
            s.transcript().earlier().stream().map(p -> new Part(p.sessionId(), p.path().toString())).toList());
    TokenUsage u = s.tokens();
    Tokens tokens = u == null ? null : new Tokens(u.input(), u.output(), u.cacheRead(), u.cacheCreation());
    return new AgentJson(s.id(), s.agent().cliName(), s.name(), s.repo().toString(), s.worktree().toString(),
        s.branch(), s.base(), s.baseCommit(), s.baseBranch(), s.inPlace(), s.argv(), s.terminalId(), t,
        s.transcriptStatus().code(), s.transcriptBytesRead(), s.lifecycle().code(), status(s.status()), terminalState, tokens,
        costUsd, agentCostUsd, s.createdAt().toString(), s.lastActivityAt() == null ? null : s.lastActivityAt().toString());
  }

  static Status status(AgentStatus st) {
    Choice choice = null;
    PendingChoice pc = st.choice();
    if (pc != null) {
      choice = new Choice(pc.title(), pc.options().stream()
          .map(o -> new Option(o.index(), o.label(), o.destructive(), o.description())).toList(), pc.numbered());
    }
    return new Status(st.phase().code(), st.awaitingInput(), st.question(), choice, st.evidence().code(),
        st.clearedByTranscript());
  }

  static Diff diff(WorktreeDiff d) {
    return new Diff(d.base(), d.fromCommit(), d.files().stream()
        .map(f -> new File(f.path(), f.oldPath(), f.status().code(), f.added(), f.removed(), f.binary())).toList(),
        d.patch());
  }

  static Merge merge(MergeResult m) {
    return new Merge(m.kind().code(), m.baseBranch(), m.commit(), m.committedWork());
  }
}
