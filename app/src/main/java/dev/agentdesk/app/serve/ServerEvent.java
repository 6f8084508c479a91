package dev.agentdesk.app.serve;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Everything the global event stream ({@code /ws/events}) carries. The browser uses it for badges,
 * notifications and live lists; each message is one of these as JSON with a {@code type}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(ServerEvent.Hello.class),
    @JsonSubTypes.Type(ServerEvent.ImportProgress.class),
    @JsonSubTypes.Type(ServerEvent.HistoryChanged.class),
    @JsonSubTypes.Type(ServerEvent.TerminalState.class),
    @JsonSubTypes.Type(ServerEvent.TerminalEvent.class),
    @JsonSubTypes.Type(ServerEvent.TerminalRemoved.class),
    @JsonSubTypes.Type(ServerEvent.SandboxesChanged.class),
    @JsonSubTypes.Type(ServerEvent.AgentChanged.class),
    @JsonSubTypes.Type(ServerEvent.AgentRemoved.class),
    @JsonSubTypes.Type(ServerEvent.Notify.class),
    @JsonSubTypes.Type(ServerEvent.AutoResumeChanged.class)
})
public sealed interface ServerEvent {

  /** First message on every connection. */
  @JsonTypeName("hello")
  record Hello(String version, boolean token_required) implements ServerEvent {}

  /** Progress of the background history import or of a tailing pass. */
  @JsonTypeName("import-progress")
  record ImportProgress(ImportStatus status) implements ServerEvent {}

  /** Sessions were added or changed in the history database. */
  @JsonTypeName("history-changed")
  record HistoryChanged(List<String> session_ids) implements ServerEvent {}

  /** A terminal's state changed (busy/idle, awaiting input, rate limit, usage, exit, …). */
  @JsonTypeName("terminal-state")
  record TerminalState(String terminal_id, JsonNode state) implements ServerEvent {}

  /** One parsed output event of a terminal, in the output parser's JSON form. */
  @JsonTypeName("terminal-event")
  record TerminalEvent(String terminal_id, JsonNode event) implements ServerEvent {}

  /** A terminal was killed and removed. */
  @JsonTypeName("terminal-removed")
  record TerminalRemoved(String terminal_id) implements ServerEvent {}

  /** A sandbox was registered or removed. */
  @JsonTypeName("sandboxes-changed")
  record SandboxesChanged() implements ServerEvent {}

  /** An agent session started, changed state, found its transcript, ended, … (the whole agent JSON). */
  @JsonTypeName("agent")
  record AgentChanged(Object agent) implements ServerEvent {}

  /** An agent session was forgotten or discarded. */
  @JsonTypeName("agent-removed")
  record AgentRemoved(String agent_id) implements ServerEvent {}

  /**
   * A notification routed to the browser: the dashboard shows it with the Notification API (and
   * a toast when the tab is visible). {@code page} is the session's dashboard route.
   */
  @JsonTypeName("notification")
  record Notify(String event, String session, String agent, String title, String text, String url, String at,
      String page) implements ServerEvent {}

  /** A session's auto-resume switch or plan changed (scheduled, resumed, cancelled, skipped). */
  @JsonTypeName("auto-resume")
  record AutoResumeChanged(String session, Object auto_resume) implements ServerEvent {}
}
