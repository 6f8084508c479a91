package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The resources: a session of the history as Markdown, and a terminal's screen as text. Both are
 * templates (there are too many sessions to list); an unknown id is the protocol's
 * resource-not-found error.
 */
final class Resources {
  static final String SESSION_PREFIX = "agentdesk://history/sessions/";
  static final String TERMINAL_PREFIX = "agentdesk://terminals/";
  static final String SCREEN_SUFFIX = "/screen";

  private Resources() {}

  static List<McpServerFeatures.SyncResourceTemplateSpecification> templates(HistoryTools history,
      TerminalsPort terminals) {
    McpSchema.ResourceTemplate session = McpSchema.ResourceTemplate.builder()
        .uriTemplate(SESSION_PREFIX + "{id}")
        .name("history-session")
        .title("A session of the history")
        .description("One imported agent session (messages, tool calls, results) as Markdown")
        .mimeType("text/markdown")
        .build();
    McpSchema.ResourceTemplate screen = McpSchema.ResourceTemplate.builder()
        .uriTemplate(TERMINAL_PREFIX + "{id}" + SCREEN_SUFFIX)
        .name("terminal-screen")
        .title("A terminal's screen")
        .description("The scrollback and screen of a supervised terminal as text")
        .mimeType("text/plain")
        .build();
    return List.of(
        new McpServerFeatures.SyncResourceTemplateSpecification(session, (exchange, request) ->
            read(request.uri(), "text/markdown", SESSION_PREFIX, "", history::markdown)),
        new McpServerFeatures.SyncResourceTemplateSpecification(screen, (exchange, request) ->
            read(request.uri(), "text/plain", TERMINAL_PREFIX, SCREEN_SUFFIX, id -> screenText(terminals.snapshot(id)))));
  }

  private static McpSchema.ReadResourceResult read(String uri, String mime, String prefix, String suffix,
      Function<String, String> text) {
    if (uri == null || !uri.startsWith(prefix) || !uri.endsWith(suffix) || uri.length() <= prefix.length() + suffix.length()) {
      throw McpError.RESOURCE_NOT_FOUND.apply(uri);
    }
    String id = URLDecoder.decode(uri.substring(prefix.length(), uri.length() - suffix.length()), StandardCharsets.UTF_8);
    try {
      return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, mime, text.apply(id))));
    } catch (PortException e) {
      if (e.reason() == PortException.Reason.NOT_FOUND) {
        throw McpError.RESOURCE_NOT_FOUND.apply(uri);
      }
      throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message(e.reason().code() + ": " + e.getMessage())
          .build();
    }
  }

  static String screenText(JsonNode snapshot) {
    return String.join("\n", screenLines(snapshot)) + "\n";
  }

  /** Scrollback then screen, trailing blank rows dropped: a terminal's text as a person reads it. */
  static List<String> screenLines(JsonNode snapshot) {
    List<String> all = new ArrayList<>(Jsons.lastStrings(snapshot.get("log"), Integer.MAX_VALUE));
    all.addAll(Jsons.lastStrings(snapshot.get("lines"), Integer.MAX_VALUE));
    while (!all.isEmpty() && all.get(all.size() - 1).isBlank()) {
      all.remove(all.size() - 1);
    }
    return all;
  }
}
