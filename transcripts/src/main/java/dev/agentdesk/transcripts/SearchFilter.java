package dev.agentdesk.transcripts;

/**
 * Restricts a full-text search to some sessions. Null fields match everything. The filter is
 * applied inside the ranked query, so a filtered search still returns up to its limit of hits.
 *
 * @param provider only sessions of this provider
 * @param project only sessions whose project name equals this
 * @param sessionId only this session
 */
public record SearchFilter(Provider provider, String project, String sessionId) {
  /** No restriction. */
  public static final SearchFilter NONE = new SearchFilter(null, null, null);
}
