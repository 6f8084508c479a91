package dev.agentdesk.transcripts;

/**
 * Filters and paging for the session list (newest activity first). Null filters match everything.
 *
 * @param provider only sessions of this provider
 * @param project only sessions whose project name equals this
 * @param since only sessions active at or after this ISO instant
 * @param includeSubagents whether subagent transcripts are listed
 */
public record SessionQuery(Provider provider, String project, String since, boolean includeSubagents, int limit,
    int offset) {
  public SessionQuery {
    if (limit <= 0 || offset < 0) {
      throw new IllegalArgumentException("limit must be positive and offset non-negative");
    }
  }

  /** The first {@code limit} sessions of every provider, subagents excluded. */
  public static SessionQuery all(int limit) {
    return new SessionQuery(null, null, null, false, limit, 0);
  }
}
