package dev.agentdesk.terminal.parser;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rate-limit messages, per agent and per provider. Agent messages are anchored at the start of the
 * row ({@link Lead#MARK}); provider JSON fields are matched anywhere but not inside quotes of prose.
 * The first matching rule names the event.
 */
final class RateLimitRules {
  private record Rule(String name, Pattern pattern, boolean structural) {}

  private static final String APOS = "(?:'|’)";

  private static final List<Rule> RULES = List.of(
      // Claude Code
      anchored("claude_usage_limit", "Claude (?:AI )?usage limit reached\\b.*"),
      anchored("claude_limit_reached", "You" + APOS + "ve hit your (?:session |weekly |daily |Opus |Sonnet )?limit\\b.*"),
      anchored("claude_rate_limit", "API Error:?\\s*(?:429\\b|Request rejected \\(429\\)).*"),
      // Claude Code's friendlier form of a server-side throttle ("… (not your usage limit) · Rate limited").
      anchored("claude_server_limiting", "Server is temporarily limiting requests\\b.*"),
      // Codex CLI / OpenAI
      anchored("codex_usage_limit", "You" + APOS + "ve hit your usage limit\\b.*"),
      anchored("codex_retry_limit", ".*exceeded retry limit, last status: 429\\b.*"),
      // Aider (litellm)
      unanchored("aider_rate_limit", "litellm\\.RateLimitError\\b.*"),
      unanchored("openai_rate_limit", "Rate limit reached for\\s+\\S+.*"),
      structural("openai_rate_limit_json", "\"code\"\\s*:\\s*\"rate_limit_exceeded\""),
      structural("anthropic_rate_limit_json", "\"type\"\\s*:\\s*\"rate_limit_error\""),
      // The bare error codes, printed as the message itself ("Error: rate_limit_error - …",
      // "RateLimitError: …", "RESOURCE_EXHAUSTED: quota exceeded"); in prose or code they are
      // quoted or follow other words, which the anchor and the guards keep out.
      anchored("rate_limit_error", "(?:rate_limit_error|rate_limit_exceeded|RateLimitError)\\b.*"),
      anchored("resource_exhausted", "RESOURCE_EXHAUSTED\\b.*"),
      // Gemini CLI / Google
      anchored("gemini_api_quota", "\\[API Error:.*(?:\\b429\\b|RESOURCE_EXHAUSTED|Resource has been exhausted|Too Many Requests).*"),
      // 0.61 with an API key: a hard 429 ("… limit: 0 …") prints the quota message, not the status.
      anchored("gemini_quota_exceeded", "\\[API Error:\\s*(?:Quota exceeded for\\b|You have exhausted your\\b).*"),
      anchored("gemini_daily_quota", "You have reached your daily .*quota limit.*"),
      anchored("gemini_quota_fallback", "Possible quota limitations in place.*"),
      structural("google_resource_exhausted", "\"status\"\\s*:\\s*\"RESOURCE_EXHAUSTED\""),
      // GitHub Copilot CLI
      anchored("copilot_rate_limit", "Sorry, you" + APOS + "ve hit a rate limit\\b.*"),
      structural("copilot_rate_limited_json", "\"code\"\\s*:\\s*\"rate_limited\""),
      // Cursor
      anchored("cursor_rate_limit", "(?:User Provided API Key Rate Limit Exceeded|You" + APOS
          + "ve hit your usage limit for [\\w .-]+|You" + APOS + "ve reached your usage limit).*"),
      // Generic wording shared by OpenCode, Goose and others; named after the running agent.
      anchored("rate_limit_exceeded", "(?:Error from provider[^:]*:\\s*(?:\\[rate_limit_exceeded\\]\\s*)?)?"
          + "(?:Rate limit exceeded|Rate limited|Too many requests)\\b.*"),
      // Generic HTTP 429 and Retry-After.
      // "HTTP 429" counts at the start of a row or as a response status line ("HTTP/1.1 429"): prose
      // that describes code returning "HTTP 429 Too Many Requests" is not the agent being limited.
      unanchored("http_429", "(?:^\\s*(?:HTTP\\s+)?|['\"(\\[:]\\s*|HTTP/[\\d.]+\\s+|status(?: code)?:?\\s*|Error:?\\s+)429\\b\\s*"
          + "(?:Too Many Requests)?.*"),
      anchored("retry_after", "(?:<\\s*|>\\s*)?Retry-After:\\s*\\d+.*"),
      structural("retry_after", "['\"]retry-after['\"]\\s*:\\s*['\"]?\\d+"));

  /**
   * Copilot CLI 1.0.102 on a BYOK provider: a 429 it gave up retrying ("✗ Failed to get response
   * from the AI model; retried 5 times (…) Last error: 429 Rate limit reached for requests") and one
   * it may not retry ("✗ 429 Number of request tokens has exceeded …"): its own lines, so only
   * for Copilot.
   */
  private static final List<Rule> COPILOT = List.of(
      anchored("copilot_rate_limit", "(?:Execution failed: )?Failed to get response from the AI model;.*"
          + "\\bLast error: 429\\b.*"),
      anchored("copilot_rate_limit", "429\\s+\\S.*"));

  /**
   * pi 0.73.1 prints each failed attempt as "Error: 429 Rate limit reached for requests" and, when
   * its retries are spent, "Error: Retry failed after 3 attempts: 429 …": read whole, pi only.
   */
  private static final List<Rule> PI = List.of(
      anchored("pi_rate_limit", "Error: (?:Retry failed after \\d+ attempts: )?429\\b.*"));

  private RateLimitRules() {}

  private static List<Rule> concat(List<Rule> a, List<Rule> b) {
    List<Rule> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static Rule anchored(String name, String body) {
    return new Rule(name, Pattern.compile("(?i)" + Lead.MARK + "(" + body + ")"), false);
  }

  private static Rule unanchored(String name, String body) {
    return new Rule(name, Pattern.compile("(?i)(" + body + ")"), false);
  }

  private static Rule structural(String name, String body) {
    return new Rule(name, Pattern.compile("(" + body + ")"), true);
  }

  /** The rate limit reported on {@code row}, or null. Guards are the caller's job. */
  static ParsedEvent.RateLimit match(String row, Agent agent) {
    List<Rule> own = agent == Agent.COPILOT ? COPILOT : agent == Agent.PI ? PI : List.of();
    for (Rule r : own.isEmpty() ? RULES : concat(own, RULES)) {
      Matcher m = r.pattern.matcher(row);
      if (!m.find()) {
        continue;
      }
      if (LineGuards.insideQuotes(row, m.start(1)) && !r.structural) {
        continue;
      }
      String matched = m.group(1).strip();
      String name = r.name;
      if (name.equals("rate_limit_exceeded") && agent != Agent.NONE) {
        name = agent.cliName() + "_rate_limit";
      }
      return new ParsedEvent.RateLimit(name, matched, RetryAfter.parseMillis(row));
    }
    return null;
  }
}
