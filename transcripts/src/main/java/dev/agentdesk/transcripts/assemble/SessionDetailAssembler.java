package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.SummaryRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.TurnDurationRecord;
import dev.agentdesk.transcripts.records.Visibility;
import dev.agentdesk.transcripts.records.WorkflowAgentRecord;
import dev.agentdesk.transcripts.records.WorkflowRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The only way to build session detail. It sorts, groups consecutive thinking, attaches results,
 * subagents and workflows by id, and leaves hidden messages out. It never looks at the provider,
 * never parses message text, and treats tool names as display data.
 */
public final class SessionDetailAssembler {
  private SessionDetailAssembler() {}

  /** Detail of the one session in {@code input}. */
  public static SessionDetail assembleSessionDetail(AssemblyInput input) {
    List<TranscriptRecord> records = input instanceof AssemblyInput.FreshStream f ? f.records()
        : RowAdapter.toRecords(((AssemblyInput.PersistedRows) input).rows());
    return new Fold(records).detail();
  }

  /**
   * Token usage of a set of messages with every response counted once: messages that share a
   * response id share one usage, and the copy with the largest output count is the one counted.
   */
  public static TokenUsage usageOnce(Collection<MessageRecord> messages) {
    return responseUsages(messages).values().stream().map(MessageRecord::usage).reduce(TokenUsage.ZERO,
        TokenUsage::plus);
  }

  /** One message per response: the one whose usage counts. */
  public static Map<String, MessageRecord> responseUsages(Collection<MessageRecord> messages) {
    // Keyed by response id, or by uuid for a message outside any response (kept apart: an id
    // of one kind may equal an id of the other).
    Map<String, MessageRecord> byResponse = new HashMap<>();
    Map<String, MessageRecord> alone = new HashMap<>();
    for (MessageRecord m : messages) {
      if (m.usage() == null) {
        continue;
      }
      if (m.responseId() != null) {
        byResponse.merge(m.responseId(), m, SessionDetailAssembler::better);
      } else {
        alone.merge(m.uuid(), m, SessionDetailAssembler::better);
      }
    }
    Map<String, MessageRecord> best = new HashMap<>(byResponse.size() + alone.size());
    byResponse.forEach((k, v) -> best.put("r:" + k, v));
    alone.forEach((k, v) -> best.put("m:" + k, v));
    return best;
  }

  private static MessageRecord better(MessageRecord a, MessageRecord b) {
    if (a.usage().output() != b.usage().output()) {
      return a.usage().output() > b.usage().output() ? a : b;
    }
    if (a.ordinal() != b.ordinal()) {
      return a.ordinal() < b.ordinal() ? a : b;
    }
    return a.uuid().compareTo(b.uuid()) <= 0 ? a : b;
  }

  /** Records folded by identity; a later record with the same identity replaces the earlier one. */
  private static final class Fold {
    SessionRecord session;
    final Map<String, MessageRecord> messages = new LinkedHashMap<>();
    final Map<String, ToolCallRecord> calls = new LinkedHashMap<>();
    final Map<String, ToolResultRecord> results = new LinkedHashMap<>();
    final Map<String, SummaryRecord> summaries = new LinkedHashMap<>();
    final Map<String, SubagentRecord> subagents = new LinkedHashMap<>();
    final Map<String, WorkflowRecord> workflows = new LinkedHashMap<>();
    final Map<String, WorkflowAgentRecord> workflowAgents = new LinkedHashMap<>();
    final Map<String, TurnDurationRecord> turns = new LinkedHashMap<>();

    Fold(List<TranscriptRecord> records) {
      for (TranscriptRecord r : records) {
        if (session != null && !r.sessionId().equals(session.id())) {
          throw new TranscriptException(TranscriptException.Reason.INCOMPLETE_STREAM,
              "the stream mixes sessions " + session.id() + " and " + r.sessionId());
        }
        if (r instanceof SessionRecord s) {
          if (session == null && s.countMode() == CountMode.DELTA) {
            throw new TranscriptException(TranscriptException.Reason.DELTA_SESSION, "session " + s.id()
                + " is a delta (an incremental read); session detail needs a complete stream or stored rows");
          }
          session = session == null ? s : session.absorb(s);
        } else if (r instanceof MessageRecord m) {
          messages.put(m.uuid(), m);
        } else if (r instanceof ToolCallRecord c) {
          calls.put(c.id(), c);
        } else if (r instanceof ToolResultRecord t) {
          results.put(t.toolUseId(), t);
        } else if (r instanceof SummaryRecord s) {
          summaries.put(s.id(), s);
        } else if (r instanceof SubagentRecord s) {
          subagents.put(s.agentId(), s);
        } else if (r instanceof WorkflowRecord w) {
          workflows.put(w.runId(), w);
        } else if (r instanceof WorkflowAgentRecord a) {
          workflowAgents.put(a.runId() + "\u0000" + a.agentId(), a);
        } else if (r instanceof TurnDurationRecord t) {
          turns.put(t.uuid(), t);
        } else if (r instanceof DeleteSessionRecord) {
          // What follows restates the session from the start.
          clear();
          session = null;
        }
      }
      if (session == null) {
        throw new TranscriptException(TranscriptException.Reason.INCOMPLETE_STREAM,
            "the stream has no session record");
      }
    }

    private void clear() {
      messages.clear();
      calls.clear();
      results.clear();
      summaries.clear();
      subagents.clear();
      workflows.clear();
      workflowAgents.clear();
      turns.clear();
    }

    SessionDetail detail() {
      TokenUsage usage = usageOnce(messages.values());
      // A subagent record that names this very session describes the session itself.
      String agentType = subagents.values().stream().filter(s -> session.id().equals(s.agentSessionId()))
          .map(SubagentRecord::type).filter(java.util.Objects::nonNull).findFirst().orElse(null);
      SessionDetail.Header header = new SessionDetail.Header(session.id(), session.source(), session.displayTitle(),
          session.project(), session.cwd(), session.gitBranch(), session.version(), session.startedAt(),
          session.endedAt(), session.messageCount(), session.parentSessionId(), agentType, usage,
          session.permissionMode(), session.recordedCost());

      Map<String, SubagentRecord> subagentByCall = new HashMap<>();
      for (SubagentRecord s : subagents.values()) {
        if (s.parentToolCallId() != null) {
          subagentByCall.put(s.parentToolCallId(), s);
        }
      }
      Map<String, WorkflowRecord> workflowByCall = new HashMap<>();
      for (WorkflowRecord w : workflows.values()) {
        if (w.parentToolCallId() != null) {
          workflowByCall.put(w.parentToolCallId(), w);
        }
      }

      // A subagent whose thread was written into this session's own file (no transcript of its own)
      // gets that thread's entries; they are not part of the main conversation.
      Map<String, List<Item>> threads = new HashMap<>();
      for (SubagentRecord s : subagents.values()) {
        if (s.agentSessionId() == null && s.parentToolCallId() != null) {
          threads.put(s.agentId(), new ArrayList<>());
        }
      }
      Map<String, String> threadOfMessage = new HashMap<>();
      for (MessageRecord m : messages.values()) {
        if (m.isSidechain() && m.agentId() != null && threads.containsKey(m.agentId())) {
          threadOfMessage.put(m.uuid(), m.agentId());
        }
      }
      List<Item> items = new ArrayList<>();
      for (MessageRecord m : messages.values()) {
        if (m.visibility() == Visibility.VISIBLE) {
          bucket(items, threads, threadOfMessage.get(m.uuid())).add(new Item(m.ordinal(), 0, m.uuid(), m));
        }
      }
      for (ToolCallRecord c : calls.values()) {
        String thread = c.messageUuid() == null ? null : threadOfMessage.get(c.messageUuid());
        bucket(items, threads, thread).add(new Item(c.ordinal(), 1, c.id(), c));
      }
      for (ToolResultRecord r : results.values()) {
        if (!calls.containsKey(r.toolUseId())) {
          items.add(new Item(r.ordinal(), 1, r.toolUseId(), r));
        }
      }
      for (SummaryRecord s : summaries.values()) {
        items.add(new Item(s.ordinal(), 2, s.id(), s));
      }
      return new SessionDetail(header, entries(items, threads, subagentByCall, workflowByCall));
    }

    private static List<Item> bucket(List<Item> main, Map<String, List<Item>> threads, String thread) {
      return thread == null ? main : threads.get(thread);
    }

    private List<DetailEntry> entries(List<Item> items, Map<String, List<Item>> threads,
        Map<String, SubagentRecord> subagentByCall, Map<String, WorkflowRecord> workflowByCall) {
      items.sort(Item.ORDER);
      List<DetailEntry> entries = new ArrayList<>(items.size());
      List<MessageRecord> thinking = new ArrayList<>();
      for (Item it : items) {
        if (it.record() instanceof MessageRecord m && ContentTypes.THINKING.equals(m.contentType())) {
          thinking.add(m);
          continue;
        }
        flushThinking(thinking, entries);
        if (it.record() instanceof MessageRecord m) {
          entries.add(new DetailEntry.Message(m.uuid(), m.role(), m.timestamp(), m.text(), m.contentType(),
              m.isMeta(), m.model()));
        } else if (it.record() instanceof ToolCallRecord c) {
          ToolResultRecord r = results.get(c.id());
          SubagentRecord s = subagentByCall.get(c.id());
          // Removed when used, so that a thread is shown once even if records point in a circle.
          List<Item> thread = s == null ? null : threads.remove(s.agentId());
          entries.add(new DetailEntry.ToolCall(c.id(), c.name(), c.presentation(), c.timestamp(), c.filePath(),
              c.inputJson(), r == null ? null : new DetailEntry.Result(r.content(), r.isError()),
              subagent(s, thread == null ? List.of() : entries(thread, threads, subagentByCall, workflowByCall)),
              workflow(workflowByCall.get(c.id()))));
        } else if (it.record() instanceof ToolResultRecord r) {
          entries.add(new DetailEntry.ToolCall(r.toolUseId(), null, Presentations.UNKNOWN, r.timestamp(), null, null,
              new DetailEntry.Result(r.content(), r.isError()), null, null));
        } else if (it.record() instanceof SummaryRecord s) {
          entries.add(new DetailEntry.Summary(s.id(), s.text(), s.leafUuid()));
        }
      }
      flushThinking(thinking, entries);
      return entries;
    }

    private static void flushThinking(List<MessageRecord> thinking, List<DetailEntry> entries) {
      if (thinking.isEmpty()) {
        return;
      }
      StringBuilder text = new StringBuilder();
      for (MessageRecord m : thinking) {
        if (m.text() != null && !m.text().isEmpty()) {
          if (text.length() > 0) {
            text.append("\n\n");
          }
          text.append(m.text());
        }
      }
      MessageRecord first = thinking.get(0);
      entries.add(new DetailEntry.Thinking(first.uuid(), first.timestamp(), text.length() == 0 ? null : text.toString(),
          first.model()));
      thinking.clear();
    }

    private static DetailEntry.Subagent subagent(SubagentRecord s, List<DetailEntry> thread) {
      return s == null ? null : new DetailEntry.Subagent(s.agentId(), s.type(), s.description(), s.durationMs(),
          s.totalTokens(), s.agentSessionId(), thread);
    }

    private DetailEntry.Workflow workflow(WorkflowRecord w) {
      if (w == null) {
        return null;
      }
      List<DetailEntry.WorkflowAgent> agents = new ArrayList<>();
      workflowAgents.values().stream().filter(a -> a.runId().equals(w.runId()))
          .sorted(Comparator.comparing(WorkflowAgentRecord::agentId))
          .forEach(a -> agents.add(new DetailEntry.WorkflowAgent(a.agentId(), a.type(), a.description(), a.status(),
              a.durationMs(), a.totalTokens())));
      return new DetailEntry.Workflow(w.runId(), w.taskId(), w.status(), w.durationMs(), w.totalTokens(),
          List.copyOf(agents));
    }
  }

  private record Item(long ordinal, int kind, String id, TranscriptRecord record) {
    /** Transcript order: ordinal, then messages before tool entries before summaries, then id. */
    static final Comparator<Item> ORDER = (a, b) -> {
      int c = Long.compare(a.ordinal, b.ordinal);
      if (c == 0) {
        c = Integer.compare(a.kind, b.kind);
      }
      return c != 0 ? c : a.id.compareTo(b.id);
    };
  }
}
