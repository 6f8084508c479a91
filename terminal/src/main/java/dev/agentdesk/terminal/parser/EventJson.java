package dev.agentdesk.terminal.parser;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON form of a {@link ParsedEvent}: {@code type} in kebab-case first, then the spec's fields
 * in snake_case. Absent optional fields are written as {@code null} so every event of one type has
 * the same keys.
 */
public final class EventJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private EventJson() {}

  /** The event as a JSON object. */
  public static ObjectNode toNode(ParsedEvent event) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", event.type());
    if (event instanceof ParsedEvent.RateLimit e) {
      n.put("pattern_name", e.patternName());
      n.put("matched_text", e.matchedText());
      n.put("retry_after_ms", e.retryAfterMs());
    } else if (event instanceof ParsedEvent.StatusLine e) {
      n.put("task_name", e.taskName());
      n.put("full_line", e.fullLine());
      n.put("time_info", e.timeInfo());
      n.put("token_info", e.tokenInfo());
    } else if (event instanceof ParsedEvent.PrUrl e) {
      n.put("number", e.number());
      n.put("url", e.url());
      n.put("platform", e.platform().wire());
    } else if (event instanceof ParsedEvent.Progress e) {
      n.put("state", e.state());
      n.put("value", e.value());
    } else if (event instanceof ParsedEvent.Question e) {
      n.put("prompt_text", e.promptText());
      n.put("confident", e.confident());
      n.put("_turn_epoch", e.turnEpoch());
    } else if (event instanceof ParsedEvent.QuestionCleared e) {
      n.put("_turn_epoch", e.turnEpoch());
    } else if (event instanceof ParsedEvent.ApiError e) {
      n.put("pattern_name", e.patternName());
      n.put("matched_text", e.matchedText());
      n.put("error_kind", e.errorKind().wire());
    } else if (event instanceof ParsedEvent.Intent e) {
      n.put("text", e.text());
      n.put("title", e.title());
    } else if (event instanceof ParsedEvent.PlanFile e) {
      n.put("path", e.path());
    } else if (event instanceof ParsedEvent.Suggest e) {
      ArrayNode items = n.putArray("items");
      e.items().forEach(items::add);
    } else if (event instanceof ParsedEvent.UsageLimit e) {
      n.put("percentage", e.percentage());
      n.put("limit_type", e.limitType().wire());
    } else if (event instanceof ParsedEvent.UsageExhausted e) {
      n.put("reset_time", e.resetTime());
    } else if (event instanceof ParsedEvent.ActiveSubtasks e) {
      n.put("count", e.count());
      n.put("task_type", e.taskType());
    } else if (event instanceof ParsedEvent.ShellState e) {
      n.put("state", e.state().wire());
    } else if (event instanceof ParsedEvent.AgentSessionConflict e) {
      n.put("matched_text", e.matchedText());
      n.put("kind", e.kind().wire());
    } else if (event instanceof ParsedEvent.ChoicePrompt e) {
      n.put("title", e.title());
      ArrayNode options = n.putArray("options");
      for (ParsedEvent.ChoiceOption o : e.options()) {
        ObjectNode on = options.addObject();
        on.put("index", o.index());
        on.put("label", o.label());
        on.put("highlighted", o.highlighted());
        on.put("destructive", o.destructive());
        on.put("hint", o.hint());
        if (o.description() != null) {
          on.put("description", o.description());
        }
      }
      n.put("dismiss_key", e.dismissKey());
      n.put("amend_key", e.amendKey());
      n.put("numbered", e.numbered());
    } else if (event instanceof ParsedEvent.SlashMenu e) {
      ArrayNode items = n.putArray("items");
      for (ParsedEvent.SlashMenuItem i : e.items()) {
        ObjectNode in = items.addObject();
        in.put("command", i.command());
        in.put("highlighted", i.highlighted());
      }
    }
    // QuestionCleared and ChoiceCleared carry no payload beyond what is written above.
    return n;
  }

  /** The event as one line of JSON. */
  public static String toJson(ParsedEvent event) {
    return write(toNode(event));
  }

  /** The event plus {@code at_ms} (milliseconds since the start of the capture) as one line of JSON. */
  public static String toJson(ParsedEvent event, long atMs) {
    ObjectNode n = toNode(event);
    n.put("at_ms", atMs);
    return write(n);
  }

  private static String write(ObjectNode n) {
    try {
      return MAPPER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      // An ObjectNode of strings, numbers and booleans always serialises.
      throw new IllegalStateException("cannot serialise event JSON", e);
    }
  }
}
