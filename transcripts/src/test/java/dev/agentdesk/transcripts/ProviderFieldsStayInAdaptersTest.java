package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ADR 0002/0021: only {@code transcripts/adapter} knows a provider's format. No other source of the
 * transcripts module or of the app names a provider-specific field of any of the formats.
 */
class ProviderFieldsStayInAdaptersTest {
  /** Field and line-type names that exist in one provider's files and nowhere in the canonical records. */
  static final List<String> PROVIDER_FIELDS = List.of(
      // Claude Code
      "toolUseResult", "sourceToolUseID", "requestId", "isCompactSummary", "cache_read_input_tokens", "leafUuid\"",
      // Codex
      "session_meta", "response_item", "event_msg", "turn_context", "token_count", "cached_input_tokens",
      // Gemini CLI
      "projectHash", "$rewindTo", "functionResponse", "displayContent", "\"toolCalls\"",
      // Copilot CLI
      "modelMetrics", "toolRequests", "session.shutdown", "assistant.message", "parentToolCallId\"",
      // Cursor
      "agent-transcripts", "turn_ended", "user_query",
      // OpenCode
      "callID", "messageID", "sessionID", "providerID", "modelID", "MessageAbortedError",
      // pi
      "thinking_level_change", "bashExecution", "branch_summary", "firstKeptEntryId", "custom_message");

  @Test
  void noCodeOutsideTheAdaptersNamesAProviderField() throws IOException {
    Path module = Path.of("").toAbsolutePath();
    List<Path> roots = List.of(module.resolve("src/main"), module.resolveSibling("app").resolve("src/main"));
    Path adapters = module.resolve("src/main/java/dev/agentdesk/transcripts/adapter");
    List<String> found = new ArrayList<>();
    int files = 0;
    for (Path root : roots) {
      try (Stream<Path> s = Files.walk(root)) {
        for (Path f : s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".java")
            || p.toString().endsWith(".js")).toList()) {
          if (f.startsWith(adapters)) {
            continue;
          }
          files++;
          String text = Files.readString(f);
          for (String field : PROVIDER_FIELDS) {
            if (text.contains(field)) {
              found.add(module.getParent().relativize(f) + " names " + field);
            }
          }
        }
      }
    }
    assertThat(files).as("sources looked at").isGreaterThan(50);
    assertThat(found).isEmpty();
  }
}
