package dev.agentdesk.terminal.parser;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * API errors in two tiers: what each agent prints (agent tier, anchored at the row start) and the
 * JSON error structures of providers quoted in that output (provider tier). Status 429 is left to
 * {@link RateLimitRules}.
 */
final class ApiErrorRules {
  /** How a rule classifies its match; {@code code} is the HTTP status captured by group 2, if any. */
  private enum Classify { SERVER, AUTH, UNKNOWN, BY_STATUS, BY_TEXT, GOOGLE_STATUS, MINIMAX }

  private record Rule(String name, Pattern pattern, Classify classify) {}

  private static final List<Rule> AGENT_TIER = List.of(
      // Claude Code: "API Error: 529 {…overloaded_error…}", "API Error (Request timed out.)", login problems.
      anchored("claude-api-error", "API Error:?\\s*(\\d{3})\\b.*", Classify.BY_STATUS),
      anchored("claude-api-error", "API Error(?: \\(|: )(?:Request timed out|Connection error|terminated|fetch failed).*", Classify.SERVER),
      anchored("claude-auth-error", "(?:Invalid API key|OAuth token (?:has expired|revoked)|Please run /login|"
          + "Credit balance is too low).*", Classify.AUTH),
      // Claude Code's start-up connectivity check (first run without an approved key), then it exits 1.
      anchored("claude-connect-error", "(?:Unable to connect to Anthropic services|Failed to connect to [\\w.-]+: \\S+"
          + "|Connection to [\\w.-]+ timed out after \\d+ seconds).*", Classify.SERVER),
      // Aider via litellm.
      unanchored("aider-api-error", "litellm\\.(?:InternalServerError|ServiceUnavailableError|APIConnectionError|"
          + "BadGatewayError|Timeout|AuthenticationError|PermissionDeniedError|APIError)\\b.*", Classify.BY_TEXT),
      // Codex CLI.
      anchored("codex-api-error", ".*unexpected status (\\d{3})\\b.*", Classify.BY_STATUS),
      anchored("codex-api-error", "stream disconnected before completion.*", Classify.SERVER),
      anchored("codex-api-error", "exceeded retry limit, last status: (\\d{3})\\b.*", Classify.BY_STATUS),
      // Codex 0.169's end of a turn whose 5xx outlived its retries ("■ We’re currently experiencing high demand, …");
      // the same words under "Reconnecting… n/m" (a "└" detail row) are its retry, not the end.
      anchored("codex-api-error", "We[’']re currently experiencing high demand\\b.*", Classify.SERVER),
      // Gemini CLI: "[API Error: … got status: 500 …]" / {"code": 503 …}.
      anchored("gemini-api-error", "\\[API Error:.*?(?:got status:\\s*|\"code\"\\s*:\\s*)(\\d{3})\\b.*", Classify.BY_STATUS),
      // … and unbracketed with a status name: "API Error: got status: UNAVAILABLE. {…}".
      anchored("gemini-api-error", "\\[?API Error:\\s*got status:\\s*([A-Z_]+)\\b.*", Classify.GOOGLE_STATUS),
      // Copilot CLI.
      // Its last error names the status ("… Last error: 500 Internal server error"); a 429 is a rate limit.
      anchored("copilot-api-error", "(?:Execution failed: )?Failed to get response from the AI model"
          + "(?!.*\\bLast error: 429\\b).*", Classify.SERVER),
      anchored("copilot-api-error", "(?:Model call failed|Execution failed):.*", Classify.BY_TEXT),
      anchored("copilot-auth-error", "Failed to get copilot token\\b.*", Classify.AUTH),
      // Aider's own translations of provider failures.
      anchored("aider-api-error", "The API provider(?:'s servers are down or overloaded| is not able to authenticate you"
          + "| has refused the request| timed out| is temporarily unavailable)\\b.*", Classify.BY_TEXT));

  private static final List<Rule> PROVIDER_TIER = List.of(
      structural("anthropic-server-error", "\"type\"\\s*:\\s*\"(?:api_error|overloaded_error)\"", Classify.SERVER),
      structural("anthropic-auth-error", "\"type\"\\s*:\\s*\"(?:authentication_error|permission_error)\"", Classify.AUTH),
      structural("openai-server-error", "\"type\"\\s*:\\s*\"server_error\"", Classify.SERVER),
      structural("openai-auth-error", "\"code\"\\s*:\\s*\"invalid_api_key\"", Classify.AUTH),
      structural("google-server-error", "\"status\"\\s*:\\s*\"(?:INTERNAL|UNAVAILABLE|DEADLINE_EXCEEDED)\"", Classify.SERVER),
      structural("google-auth-error", "\"status\"\\s*:\\s*\"(?:UNAUTHENTICATED|PERMISSION_DENIED)\"", Classify.AUTH),
      // OpenRouter (and other gateways) wrap the upstream failure as {"error": {"code": 502, "message": …,
      // "metadata": {"provider_name": …}}}, in either field order.
      structural("openrouter-api-error", "\"error\"\\s*:\\s*\\{\\s*(?:\"message\"\\s*:\\s*\"[^\"]*\"\\s*,\\s*)?\"code\"\\s*:\\s*(\\d{3})",
          Classify.BY_STATUS),
      structural("minimax-api-error", "\"base_resp\"\\s*:\\s*\\{\\s*\"status_code\"\\s*:\\s*(\\d+)", Classify.MINIMAX));

  private static final Pattern AUTH_WORDS = Pattern.compile("(?i)auth|unauthori[sz]ed|forbidden|permission|\\b40[13]\\b|api key");
  private static final Pattern SERVER_WORDS = Pattern.compile("(?i)server|unavailable|overloaded|timeout|timed out|\\b5\\d\\d\\b|bad gateway|connection");
  private static final Pattern RATE_WORDS = Pattern.compile("(?i)rate.?limit|\\b429\\b|quota|too many requests");

  private ApiErrorRules() {}

  private static Rule anchored(String name, String body, Classify c) {
    return new Rule(name, Pattern.compile(Lead.MARK + "(" + body + ")"), c);
  }

  private static Rule unanchored(String name, String body, Classify c) {
    return new Rule(name, Pattern.compile("(" + body + ")"), c);
  }

  private static Rule structural(String name, String body, Classify c) {
    return new Rule(name, Pattern.compile("(" + body + ")"), c);
  }

  /** Copilot CLI 1.0.102 on a BYOK provider prints a status it does not retry as the message: "✗ 500 Internal server error". */
  private static final List<Rule> COPILOT = List.of(
      anchored("copilot-api-error", "([45]\\d\\d)\\s+\\S.*", Classify.BY_STATUS));

  /** pi 0.73.1: "Error: 500 Internal server error", then "Error: Retry failed after 3 attempts: 500 …". */
  private static final List<Rule> PI = List.of(
      anchored("pi-api-error", "Error: (?:Retry failed after \\d+ attempts: )?(\\d{3})\\b.*", Classify.BY_STATUS));

  /** As {@link #match(String)}, with the rules for {@code agent}'s own lines first. */
  static ParsedEvent.ApiError match(String row, Agent agent) {
    List<Rule> own = agent == Agent.COPILOT ? COPILOT : agent == Agent.PI ? PI : List.of();
    ParsedEvent.ApiError e = own.isEmpty() ? null : first(own, row, false);
    return e != null ? e : match(row);
  }

  /** The API error reported on {@code row}, or null. Guards are the caller's job. */
  static ParsedEvent.ApiError match(String row) {
    ParsedEvent.ApiError e = first(AGENT_TIER, row, false);
    return e != null ? e : first(PROVIDER_TIER, row, true);
  }

  private static ParsedEvent.ApiError first(List<Rule> rules, String row, boolean structural) {
    for (Rule r : rules) {
      Matcher m = r.pattern.matcher(row);
      if (!m.find() || !structural && LineGuards.insideQuotes(row, m.start(1))) {
        continue;
      }
      ErrorKind kind = classify(r.classify, m, row);
      if (kind == null) {
        continue;
      }
      return new ParsedEvent.ApiError(r.name, m.group(1).strip(), kind);
    }
    return null;
  }

  /** The kind, or null when the match is really a rate limit (or not an error at all). */
  private static ErrorKind classify(Classify c, Matcher m, String row) {
    switch (c) {
      case SERVER:
        return ErrorKind.SERVER;
      case AUTH:
        return ErrorKind.AUTH;
      case UNKNOWN:
        return ErrorKind.UNKNOWN;
      case BY_STATUS: {
        int status = Integer.parseInt(m.group(2));
        if (status == 429) {
          return null;
        }
        if (status >= 500) {
          return ErrorKind.SERVER;
        }
        if (status == 401 || status == 403) {
          return ErrorKind.AUTH;
        }
        return status >= 400 ? ErrorKind.UNKNOWN : null;
      }
      case BY_TEXT:
        if (RATE_WORDS.matcher(row).find()) {
          return null;
        }
        if (AUTH_WORDS.matcher(row).find()) {
          return ErrorKind.AUTH;
        }
        return SERVER_WORDS.matcher(row).find() ? ErrorKind.SERVER : ErrorKind.UNKNOWN;
      case GOOGLE_STATUS:
        switch (m.group(2)) {
          case "RESOURCE_EXHAUSTED":
            return null; // a quota: the rate-limit rules report it
          case "UNAUTHENTICATED":
          case "PERMISSION_DENIED":
            return ErrorKind.AUTH;
          case "INTERNAL":
          case "UNAVAILABLE":
          case "DEADLINE_EXCEEDED":
          case "UNKNOWN":
            return ErrorKind.SERVER;
          default:
            return ErrorKind.UNKNOWN;
        }
      case MINIMAX: {
        long code = Long.parseLong(m.group(2).length() > 9 ? "999999999" : m.group(2));
        if (code == 0 || code == 1002 || code == 1039) {
          return null; // 0 = success; 1002/1039 are MiniMax's rate-limit codes
        }
        if (code == 1004 || code == 2049) {
          return ErrorKind.AUTH;
        }
        return code == 1000 || code == 1001 || code == 1013 || code == 1024 || code == 1033
            ? ErrorKind.SERVER : ErrorKind.UNKNOWN;
      }
      default:
        throw new IllegalStateException(c.name());
    }
  }
}
