package dev.agentdesk.terminal.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.terminal.parser.EventJson;

/**
 * The JSON-lines form of a session's events (what {@code agentdesk term run --events} writes).
 * Every line has {@code type} (kebab-case) and {@code at_ms} (milliseconds since the session
 * started). Parser events keep the parser's JSON form and add {@code source} ("parser" or
 * "session"); the session's own events are {@code session-state} (the whole {@link SessionState}
 * in snake_case under {@code state}), {@code session-id-reset}, {@code capture-stopped},
 * {@code analysis-failed} and {@code exit}.
 */
public final class SessionJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SessionJson() {}

  /** One event as a JSON object; {@code startMs} is the session-clock time the session started. */
  public static ObjectNode toNode(SessionEvent event, long startMs) {
    ObjectNode n;
    if (event instanceof SessionEvent.Parsed p) {
      n = EventJson.toNode(p.event());
      n.put("source", p.source() == SessionEvent.Source.PARSER ? "parser" : "session");
    } else if (event instanceof SessionEvent.StateChanged s) {
      n = MAPPER.createObjectNode().put("type", "session-state");
      n.set("state", stateNode(s.state(), startMs));
    } else if (event instanceof SessionEvent.SessionIdReset r) {
      n = MAPPER.createObjectNode().put("type", "session-id-reset").put("previous_id", r.previousId())
          .put("new_id", r.newId());
    } else if (event instanceof SessionEvent.CaptureStopped c) {
      n = MAPPER.createObjectNode().put("type", "capture-stopped").put("file", c.file().toString())
          .put("error", c.error());
    } else if (event instanceof SessionEvent.AnalysisFailed f) {
      n = MAPPER.createObjectNode().put("type", "analysis-failed").put("message", f.message());
    } else if (event instanceof SessionEvent.Exited x) {
      n = MAPPER.createObjectNode().put("type", "exit").put("exit_code", x.exitCode());
    } else {
      throw new IllegalArgumentException("unknown session event " + event);
    }
    n.put("at_ms", event.atMs() - startMs);
    return n;
  }

  /** One event as one line of JSON (no newline). */
  public static String toJson(SessionEvent event, long startMs) {
    try {
      return MAPPER.writeValueAsString(toNode(event, startMs));
    } catch (JsonProcessingException e) {
      // Strings, numbers, booleans and nulls always serialise.
      throw new IllegalStateException("cannot serialise session event", e);
    }
  }

  /** The state in snake_case; {@code rate_limited_until_ms} counts from {@code startMs} like {@code at_ms}. */
  public static ObjectNode stateNode(SessionState s, long startMs) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("session_id", s.sessionId());
    n.put("agent", s.agent().cliName());
    n.put("shell", s.busy() ? "busy" : "idle");
    n.put("awaiting_input", s.awaitingInput());
    n.put("question", s.question());
    n.put("question_confident", s.questionConfident());
    if (s.choicePrompt() == null) {
      n.putNull("choice_prompt");
    } else {
      ObjectNode c = n.putObject("choice_prompt");
      c.put("title", s.choicePrompt().title());
      ArrayNode opts = c.putArray("options");
      for (PendingChoice.Option o : s.choicePrompt().options()) {
        opts.addObject().put("index", o.index()).put("label", o.label()).put("destructive", o.destructive())
            .put("description", o.description());
      }
      c.put("dismiss_key", s.choicePrompt().dismissKey());
      c.put("amend_key", s.choicePrompt().amendKey());
      c.put("numbered", s.choicePrompt().numbered());
    }
    n.put("rate_limited_until_ms", s.rateLimitedUntilMs() == null ? null : s.rateLimitedUntilMs() - startMs);
    n.put("rate_limit_text", s.rateLimitText());
    n.put("usage_percentage", s.usagePercentage());
    n.put("usage_limit_type", s.usageLimitType());
    n.put("usage_exhausted", s.usageExhausted());
    n.put("usage_reset_text", s.usageResetText());
    n.put("active_subtasks", s.activeSubtasks());
    n.put("intent", s.intent());
    n.put("intent_title", s.intentTitle());
    ArrayNode sug = n.putArray("suggestions");
    s.suggestions().forEach(sug::add);
    ArrayNode prs = n.putArray("pr_urls");
    s.prUrls().forEach(prs::add);
    n.put("last_api_error", s.lastApiError());
    n.put("last_api_error_kind", s.lastApiErrorKind());
    n.put("hook_instrumented", s.hookInstrumented());
    n.put("turn_epoch", s.turnEpoch());
    n.put("exited", s.exited());
    n.put("exit_code", s.exitCode());
    return n;
  }
}
