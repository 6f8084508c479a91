package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.SessionState;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * One agent session: an agent CLI in a supervised terminal, in its worktree, linked to its
 * transcript. A snapshot; the service hands out a new value on every change.
 *
 * @param id agentdesk's id of the session
 * @param agent the agent type
 * @param name the worktree name (for an in-place session: the generated label)
 * @param repo the repository's main checkout
 * @param worktree the folder the agent works in (the repository itself when {@code inPlace})
 * @param branch the agent's branch ({@code agentdesk/<name>}), or the checkout's branch in place
 * @param base the base as given (branch, ref, or the commit when HEAD was detached)
 * @param baseCommit the commit the worktree started from
 * @param baseBranch the branch a merge goes into, or null when the base is not a branch
 * @param inPlace the agent runs in the repository's own checkout (no worktree, no merge)
 * @param argv the command line the agent was launched with
 * @param launchId the session id agentdesk chose for the agent (Claude's {@code --session-id}), or null
 * @param terminalId the id of its terminal (null before the first start and after a restart)
 * @param transcript the linked transcript, or null until found
 * @param transcriptStatus where the search for it stands
 * @param lifecycle stored lifecycle
 * @param status live status from the terminal and the transcript
 * @param terminal the terminal's parsed state, or null when no process runs in this service
 * @param tokens token usage from the linked transcript (each model response once), or null
 * @param transcriptBytesRead how much of the linked transcript this service has read (it grows with
 *     every line the agent writes, so a page refetches the transcript when it changes); 0 when none
 * @param createdAt when the session was started
 * @param lastActivityAt the last output, input or transcript line seen
 */
public record AgentSession(String id, AgentType agent, String name, Path repo, Path worktree, String branch,
    String base, String baseCommit, String baseBranch, boolean inPlace, List<String> argv, String launchId,
    String terminalId, TranscriptLink transcript, TranscriptStatus transcriptStatus, Lifecycle lifecycle,
    AgentStatus status, SessionState terminal, TokenUsage tokens, long transcriptBytesRead, Instant createdAt, Instant lastActivityAt) {

  public AgentSession {
    argv = List.copyOf(argv);
  }
}
