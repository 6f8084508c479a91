package dev.agentdesk.testkit.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The scripts {@link ModelServer#main} serves, by marker, for looking at an agent's screens by hand. */
final class ExploreScripts {
  private ExploreScripts() {}

  static List<Script> all() {
    Reply.Failure tooMany = new Reply.Failure(429, "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit", Map.of("retry-after", "4"));
    return List.of(
        Script.of("x-ask", Reply.tool("AskUserQuestion", "{\"questions\":[{\"question\":\"Which color should the button be?\","
            + "\"header\":\"Color\",\"multiSelect\":false,\"options\":[{\"label\":\"Red\",\"description\":\"A red button\"},"
            + "{\"label\":\"Blue\",\"description\":\"A blue button\"}]}]}"), Reply.text("You chose.")),
        Script.of("x-bash", Reply.tool("Bash", "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}"),
            Reply.text("Wrote it.")),
        // Copilot CLI's and pi's shell tool is "bash" (lower case), with a description Copilot requires.
        Script.of("x-cbash", Reply.tool("bash", "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}"),
            Reply.text("Wrote it.")),
        // Codex: its exec_command tool, asking to leave the sandbox, so that it asks for approval first
        Script.of("x-cxshell", Reply.tool("exec_command", "{\"cmd\":\"echo made > shell_made.txt\",\"sandbox_permissions\":"
            + "\"require_escalated\",\"justification\":\"Write shell_made.txt in the repository?\"}"), Reply.text("Made it.")),
        Script.of("x-slow", Reply.text("one two three four five six seven eight nine ten").slow(Duration.ofMillis(500), 10)),
        Script.ofSteps("x-retry", Step.retried(tooMany, 1, Reply.text("Recovered after a retry."))),
        Script.ofSteps("x-429", Step.of(new Reply.Failure(429, "rate_limit_error",
            "Number of request tokens has exceeded your per-minute rate limit", Map.of("x-should-retry", "false")))),
        // Failures a client may retry (no x-should-retry: false), on every attempt: what it shows once it gives up.
        Script.ofSteps("x-429r", Step.of(new Reply.Failure(429, "rate_limit_error",
            "Rate limit reached for requests", Map.of("retry-after", "1")))),
        Script.ofSteps("x-500r", Step.of(new Reply.Failure(500, "api_error", "Internal server error", Map.of()))),
        // A 500 that one retry gets past (Codex's "Reconnecting... 1/n" screen, then the answer).
        Script.ofSteps("x-reconnect", Step.retried(new Reply.Failure(500, "server_error", "Internal server error", Map.of()),
            1, Reply.text("Recovered after a reconnect."))),
        Script.ofSteps("x-529", Step.of(new Reply.Failure(529, "overloaded_error", "Overloaded",
            Map.of("x-should-retry", "false")))),
        Script.ofSteps("x-500", Step.of(new Reply.Failure(500, "api_error", "Internal server error",
            Map.of("x-should-retry", "false")))),
        // Gemini CLI's names for the shell tool and its error statuses.
        Script.of("g-shell", Reply.tool("run_shell_command", "{\"command\":\"echo hi > out.txt\",\"description\":\"Write out.txt\"}"),
            Reply.text("Wrote it.")),
        Script.ofSteps("g-429", Step.of(new Reply.Failure(429, "RESOURCE_EXHAUSTED",
            "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0,"
            + " model: gemini-2.5-flash", Map.of()))),
        Script.ofSteps("g-500", Step.of(new Reply.Failure(500, "INTERNAL", "Internal error encountered.", Map.of()))),
        Script.ofSteps("g-400", Step.of(new Reply.Failure(400, "INVALID_ARGUMENT", "Request contains an invalid argument.",
            Map.of()))),
        Script.ofSteps("x-401", Step.of(new Reply.Failure(401, "authentication_error", "invalid x-api-key", Map.of("x-should-retry", "false")))));
  }
}
