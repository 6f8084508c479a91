package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ADR 0002/0021/0027: only {@code transcripts/adapter} knows a provider's format. No main source of
 * any module of the build (agents, mcp, notify, app, terminal, computer-use, …, and the rest of
 * transcripts) names a provider-specific field, line type or file name of any of the formats.
 * Test sources and the agents' stand-ins may: they write provider files on purpose.
 */
class ProviderFieldsStayInAdaptersTest {
  /** Field, line-type and file names that exist in one provider's files and nowhere in the canonical records. */
  static final List<String> PROVIDER_FIELDS = List.of(
      // Claude Code
      "toolUseResult", "sourceToolUseID", "requestId", "isCompactSummary", "cache_read_input_tokens", "leafUuid\"",
      "stop_reason", "stop_hook_summary", "AskUserQuestion", "ExitPlanMode", "isApiErrorMessage", "apiErrorStatus",
      "cost-state", "totalCostUSD", "totalAPIDurationWithoutRetries", "modelUsage", "queue-operation",
      "permission-mode", "queued_command",
      // Codex
      "session_meta", "response_item", "event_msg", "turn_context", "token_count", "cached_input_tokens",
      "task_started", "task_complete", "function_call_output", "rollout-", "resets_in_seconds", "primary_used_percent",
      // Gemini CLI
      "projectHash", "$rewindTo", "functionResponse", "displayContent", "\"toolCalls\"", "awaiting_approval",
      // Copilot CLI
      "modelMetrics", "toolRequests", "session.shutdown", "assistant.message", "parentToolCallId\"", "toolCallId",
      "events.jsonl",
      // Cursor
      "agent-transcripts", "turn_ended", "user_query",
      // OpenCode
      "callID", "messageID", "sessionID", "providerID", "modelID", "MessageAbortedError",
      // pi
      "thinking_level_change", "bashExecution", "branch_summary", "firstKeptEntryId", "custom_message",
      // Aider
      "aider chat started at", "Applied edit to ", "Main model: ");

  /**
   * Main sources that write provider files on purpose, with why: the benchmark's corpus generator
   * makes Claude Code and Codex transcripts to import (test data, like the stand-ins); the test
   * kit's OpenCodeDatabase writes an opencode.db the way a running OpenCode holds it open.
   */
  static final Set<String> WRITERS_OF_PROVIDER_FILES = Set.of(
      "benchmarks/src/main/java/dev/agentdesk/bench/history/CorpusGenerator.java",
      "testkit/src/main/java/dev/agentdesk/testkit/OpenCodeDatabase.java");

  /**
   * Main-source folders that speak a provider's wire format on purpose: the test kit's scripted
   * model server (docs/real-agents.md) answers the real CLIs in their providers' own API formats,
   * tool names included.
   */
  static final Set<String> SPEAKERS_OF_PROVIDER_APIS = Set.of("testkit/src/main/java/dev/agentdesk/testkit/model/");

  static final String ADAPTERS = "transcripts/src/main/java/dev/agentdesk/transcripts/adapter/";

  private static Path checkout() {
    return Path.of("").toAbsolutePath().getParent();
  }

  /** Every module of the parent pom (profiles' modules too), read from the pom so a new module is covered. */
  static List<String> modules(Path checkout) throws IOException {
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(checkout.resolve("pom.xml")));
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1).trim());
    }
    return out;
  }

  /** "path names field" for each listed field named in a source under {@code modules}' src/main, outside the adapters. */
  static List<String> scan(Path checkout, List<String> modules, List<String> fields, int[] filesSeen) throws IOException {
    List<String> found = new ArrayList<>();
    for (String module : modules) {
      Path root = checkout.resolve(module).resolve("src/main");
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(root)) {
        for (Path f : s.filter(Files::isRegularFile).filter(ProviderFieldsStayInAdaptersTest::isSource).toList()) {
          String rel = checkout.relativize(f).toString().replace('\\', '/');
          if (rel.startsWith(ADAPTERS) || WRITERS_OF_PROVIDER_FILES.contains(rel)
              || SPEAKERS_OF_PROVIDER_APIS.stream().anyMatch(rel::startsWith)) {
            continue;
          }
          filesSeen[0]++;
          String text = Files.readString(f);
          for (String field : fields) {
            if (text.contains(field)) {
              found.add(rel + " names " + field);
            }
          }
        }
      }
    }
    return found;
  }

  private static boolean isSource(Path p) {
    String n = p.getFileName().toString();
    return n.endsWith(".java") || n.endsWith(".js") || n.endsWith(".html") || n.endsWith(".py") || n.endsWith(".sh")
        || n.endsWith(".sql");
  }

  @Test
  void noCodeOutsideTheAdaptersNamesAProviderField() throws IOException {
    Path checkout = checkout();
    List<String> modules = modules(checkout);
    assertThat(modules).contains("agents", "mcp", "notify", "app", "terminal", "computer-use", "transcripts",
        "benchmarks");
    int[] files = {0};
    List<String> found = scan(checkout, modules, PROVIDER_FIELDS, files);
    assertThat(files[0]).as("sources looked at").isGreaterThan(400);
    assertThat(found).isEmpty();
  }

  @Test
  void everyListedFieldIsOneTheAdaptersReadOrTheFormatsWrite() throws IOException {
    StringBuilder known = new StringBuilder();
    for (Path root : List.of(checkout().resolve(ADAPTERS),
        SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents"))) {
      try (Stream<Path> s = Files.walk(root)) {
        for (Path f : s.filter(Files::isRegularFile).toList()) {
          known.append(f.getFileName()).append('\n').append(Files.readString(f)).append('\n');
        }
      }
    }
    List<String> unknown = PROVIDER_FIELDS.stream().filter(f -> !known.toString().contains(f)).toList();
    assertThat(PROVIDER_FIELDS).hasSizeGreaterThan(40);
    assertThat(unknown).as("listed names in no adapter and no provider file (a stale list catches nothing)").isEmpty();
  }

  @Test
  void aFieldPlantedInAModuleIsFound(@TempDir Path tmp) throws IOException {
    Path checkout = tmp.resolve("checkout");
    Path agents = Files.createDirectories(checkout.resolve("agents/src/main/java/x"));
    Path adapters = Files.createDirectories(checkout.resolve(ADAPTERS));
    Files.writeString(agents.resolve("Clean.java"), "class Clean { String s = \"canonical\"; }");
    Files.writeString(adapters.resolve("Adapter.java"), "class Adapter { String s = \"event_msg\"; }");
    int[] files = {0};
    assertThat(scan(checkout, List.of("agents", "transcripts"), PROVIDER_FIELDS, files)).isEmpty();
    assertThat(files[0]).isEqualTo(1); // the adapter folder is not looked at
    Files.writeString(agents.resolve("Leak.java"), "class Leak { boolean codex(String t) { return t.equals(\"event_msg\"); } }");
    Path web = Files.createDirectories(checkout.resolve("app/src/main/resources/web"));
    Files.writeString(web.resolve("page.js"), "if (m.stop_reason === 'end_turn') {}");
    assertThat(scan(checkout, List.of("agents", "app", "transcripts"), PROVIDER_FIELDS, files))
        .containsExactlyInAnyOrder("agents/src/main/java/x/Leak.java names event_msg",
            "app/src/main/resources/web/page.js names stop_reason");
  }
}
