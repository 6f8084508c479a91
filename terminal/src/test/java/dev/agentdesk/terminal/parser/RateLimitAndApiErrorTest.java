package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.parseLine;
import static dev.agentdesk.terminal.parser.ParserFixtures.parseScreen;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Rate limits and API errors in the shapes each agent really prints, and text that only quotes them. */
class RateLimitAndApiErrorTest {
  private static List<ParsedEvent.RateLimit> rateLimits(Agent agent, String line) {
    return parseLine(agent, line).stream().filter(ParsedEvent.RateLimit.class::isInstance)
        .map(ParsedEvent.RateLimit.class::cast).toList();
  }

  private static List<ParsedEvent.ApiError> apiErrors(Agent agent, String line) {
    return parseLine(agent, line).stream().filter(ParsedEvent.ApiError.class::isInstance)
        .map(ParsedEvent.ApiError.class::cast).toList();
  }

  @ParameterizedTest(name = "{0}: {2}")
  @CsvSource(delimiter = '¦', nullValues = "null", value = {
      "claude¦claude_usage_limit¦  ⎿  Claude usage limit reached. Your limit will reset at 9am (America/Chicago).¦null",
      "claude¦claude_usage_limit¦Claude AI usage limit reached|1750708800¦null",
      "claude¦claude_limit_reached¦  ⎿  You've hit your session limit · resets 5:10pm (Europe/Paris)¦null",
      "claude¦claude_limit_reached¦You’ve hit your limit · resets 8pm (Africa/Cairo)¦null",
      "claude¦claude_rate_limit¦  ⎿  API Error: 429 {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed your account's rate limit. Please try again later.\"}}¦null",
      "codex¦codex_usage_limit¦■ You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 4 days 6 hours 37 minutes.¦369420000",
      "codex¦codex_usage_limit¦■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at 2:51 PM.¦null",
      "codex¦codex_retry_limit¦■ stream error: exceeded retry limit, last status: 429 Too Many Requests; retrying 5/5 in 3.2s…¦null",
      "goose¦openai_rate_limit¦Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 28578, Requested 4439. Please try again in 6.034s. Visit https://platform.openai.com/account/rate-limits to learn more.¦6034",
      "gemini¦gemini_api_quota¦✕ [API Error: {\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 429,\\n    \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\"\\n  }\\n}\\n\",\"code\":429,\"status\":\"Too Many Requests\"}}]¦null",
      "gemini¦gemini_quota_fallback¦  Possible quota limitations in place or slow response times detected. Switching to the gemini-2.5-flash model for the rest of this session.¦null",
      "gemini¦gemini_daily_quota¦⚡ You have reached your daily gemini-2.5-pro quota limit.¦null",
      "copilot¦copilot_rate_limit¦✗ Sorry, you've hit a rate limit that restricts the number of Copilot model requests you can make within a specific time period. Please try again in 2 hours. Please review our Terms of¦7200000",
      "copilot¦copilot_rate_limited_json¦ × Model call failed: {\"message\":\"rate limit exceeded\",\"code\":\"rate_limited\"}¦null",
      "aider¦aider_rate_limit¦litellm.RateLimitError: litellm.RateLimitError: VertexAIException - b'[{\\n  \"error\": {\\n    \"code\": 429,¦null",
      "opencode¦openai_rate_limit_json¦Error: OpenAI API error (429): {\"param\":null,\"code\":\"rate_limit_exceeded\",\"type\":\"rate_limit_error\",\"message\":\"Rate limit exceeded. Please retry after a brief wait.\"}¦null",
      "opencode¦opencode_rate_limit¦Error from provider (Console): Rate limit exceeded. Please try again later.¦null",
      "goose¦goose_rate_limit¦Ran into this error: Rate limit exceeded: Max retries exceeded for rate limit error.¦null",
      "none¦cursor_rate_limit¦User Provided API Key Rate Limit Exceeded¦null",
      "none¦http_429¦httpx.HTTPStatusError: Client error '429 Too Many Requests' for url 'https://api.openai.com/v1/chat/completions'¦null",
      "none¦http_429¦HTTP/1.1 429 Too Many Requests¦null",
      "none¦retry_after¦< Retry-After: 30¦30000",
      // Bare provider codes printed as the message.
      "claude¦rate_limit_error¦Error: rate_limit_error (slow down and retry)¦null",
      "aider¦rate_limit_error¦RateLimitError: tokens per minute exceeded¦null",
      "gemini¦resource_exhausted¦RESOURCE_EXHAUSTED: per-minute quota¦null",
      "claude¦claude_server_limiting¦  ⎿  API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited¦null",
  })
  void agentAndProviderRateLimitsAreRecognised(String agent, String pattern, String line, Long retryMs) {
    List<ParsedEvent.RateLimit> r = rateLimits(Agent.fromCliName(agent), line);
    assertThat(r).as(line).hasSize(1);
    assertThat(r.get(0).patternName()).isEqualTo(pattern);
    assertThat(r.get(0).retryAfterMs()).isEqualTo(retryMs);
    assertThat(r.get(0).matchedText()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "When the API returns 429 Too Many Requests we back off and retry.",
      "The CLI prints `Rate limit exceeded` when your key is throttled.",
      "Claude prints \"Claude usage limit reached\" once the plan quota is gone.",
      "    const msg = \"Rate limit exceeded\";",
      "// Rate limit exceeded: retry with backoff",
      "# Handling 429 Too Many Requests",
      "- Rate limit exceeded errors are retried three times",
      "| 429 | Too Many Requests | retry later |",
      "+    raise RateLimitError(\"Rate limit exceeded\")",
      "-  if status == 429: # Too Many Requests",
      "  462 -        return Err(\"Rate limit exceeded\")",
      "     12  throw new Error('Rate limit exceeded');",
      "⏺ Bash(grep -rn \"Rate limit exceeded\" src/)",
      "Rate limiting is implemented with a token bucket per user.",
      "We should handle the case where you've hit your usage limit gracefully.",
      "I added middleware that answers HTTP 429 Too Many Requests once a client exceeds its budget.",
      "The handler maps RESOURCE_EXHAUSTED to a retry with backoff.",
  })
  void codeDiffsMarkdownAndProseAboutRateLimitsDoNotFire(String line) {
    assertThat(rateLimits(Agent.CLAUDE, line)).as(line).isEmpty();
    assertThat(apiErrors(Agent.CLAUDE, line)).as(line).isEmpty();
  }

  @Test
  void aRateLimitQuotedInsideAFencedCodeBlockDoesNotFire() {
    List<ParsedEvent> events = parseScreen(Agent.CLAUDE, List.of(
        "Here is the error you will see:", "```", "Rate limit exceeded: Max retries exceeded", "```", "Done."));
    assertThat(events).noneMatch(ParsedEvent.RateLimit.class::isInstance);
  }

  @ParameterizedTest(name = "{1}: {3}")
  @CsvSource(delimiter = '¦', value = {
      "claude¦claude-api-error¦server¦  ⎿  API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
      "claude¦claude-api-error¦server¦  ⎿  API Error: 500 {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}",
      "claude¦claude-api-error¦auth¦API Error: 401 {\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}",
      "claude¦claude-api-error¦server¦  ⎿  API Error (Request timed out.)",
      "claude¦claude-auth-error¦auth¦Invalid API key · Please run /login",
      "claude¦claude-auth-error¦auth¦  ⎿  OAuth token has expired. Please obtain a new token or refresh your existing token.",
      "aider¦aider-api-error¦server¦litellm.InternalServerError: AnthropicException - Overloaded. Handle with `litellm.InternalServerError`.",
      "aider¦aider-api-error¦auth¦litellm.AuthenticationError: AnthropicException - invalid x-api-key",
      "codex¦codex-api-error¦server¦■ unexpected status 502 Bad Gateway: upstream connect error",
      "codex¦codex-api-error¦auth¦■ unexpected status 401 Unauthorized: Missing bearer or basic authentication in header",
      "codex¦codex-api-error¦server¦■ stream disconnected before completion: Transport error: error decoding response body",
      "gemini¦gemini-api-error¦server¦✕ [API Error: got status: 503 Service Unavailable. {\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}]",
      "copilot¦copilot-api-error¦server¦ × Execution failed: Failed to get response from the AI model; retried 5 times (total retry wait time: 92.7 seconds)",
      "none¦openai-server-error¦server¦{\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\",\"param\":null,\"code\":null}}",
      "none¦openai-auth-error¦auth¦{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
      "none¦google-auth-error¦auth¦{\"error\":{\"code\":403,\"message\":\"Permission denied\",\"status\":\"PERMISSION_DENIED\"}}",
      "none¦openrouter-api-error¦server¦{\"error\":{\"message\":\"Provider returned error\",\"code\":502,\"metadata\":{\"provider_name\":\"Anthropic\"}}}",
      "none¦minimax-api-error¦auth¦{\"base_resp\":{\"status_code\":1004,\"status_msg\":\"login fail: Please carry the API secret key\"}}",
      "none¦anthropic-server-error¦server¦{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
      "gemini¦gemini-api-error¦server¦API Error: got status: DEADLINE_EXCEEDED. {\"error\":{\"code\":504}}",
      "gemini¦gemini-api-error¦auth¦✕ API Error: got status: UNAUTHENTICATED.",
      "aider¦aider-api-error¦server¦The API provider's servers are down or overloaded. Retrying in 0.5 seconds...",
      "aider¦aider-api-error¦auth¦The API provider is not able to authenticate you. Check your API key.",
      "copilot¦copilot-auth-error¦auth¦✗ Failed to get copilot token: 403",
      "codex¦codex-api-error¦auth¦■ stream error: exceeded retry limit, last status: 401 Unauthorized; retrying 5/5 in 2.1s…",
      "codex¦codex-api-error¦server¦■ stream error: exceeded retry limit, last status: 503 Service Unavailable; retrying 5/5 in 2.1s…",
      "none¦openrouter-api-error¦server¦{\"error\":{\"code\":503,\"message\":\"No endpoints available\",\"metadata\":{\"provider_name\":\"Google\"}}}",
  })
  void agentAndProviderApiErrorsAreClassified(String agent, String pattern, String kind, String line) {
    List<ParsedEvent.ApiError> e = apiErrors(Agent.fromCliName(agent), line);
    assertThat(e).as(line).hasSize(1);
    assertThat(e.get(0).patternName()).isEqualTo(pattern);
    assertThat(e.get(0).errorKind().wire()).isEqualTo(kind);
  }

  @Test
  void a429IsARateLimitNotAnApiError() {
    String line = "  ⎿  API Error: 429 {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}";
    assertThat(apiErrors(Agent.CLAUDE, line)).isEmpty();
    assertThat(rateLimits(Agent.CLAUDE, line)).hasSize(1);
  }

  @Test
  void theSameErrorIsNotReEmittedWithinATurnButIsAfterInput() {
    ManualClock clock = new ManualClock(0);
    OutputParser p = new OutputParser(Agent.CLAUDE, clock);
    String err = "  ⎿  API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    ScreenView at5 = ScreenView.ofLines(List.of("", "", "", "", "", err));
    ScreenView at2 = ScreenView.ofLines(List.of("", "", err));
    assertThat(p.onScreen(at5, List.of(new RowChange(5, err)))).filteredOn(ParsedEvent.ApiError.class::isInstance).hasSize(1);
    // Redrawn / scrolled to another row: the same error, not a new one.
    assertThat(p.onScreen(at2, List.of(new RowChange(2, err)))).noneMatch(ParsedEvent.ApiError.class::isInstance);
    p.onInput("retry\r".getBytes(), 0, 6);
    assertThat(p.onScreen(at5, List.of(new RowChange(5, err)))).filteredOn(ParsedEvent.ApiError.class::isInstance).hasSize(1);
  }
}
