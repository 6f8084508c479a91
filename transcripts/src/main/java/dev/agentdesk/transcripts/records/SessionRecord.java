package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * Session metadata. With {@link CountMode#DELTA} the counts and time bounds cover only the records
 * of that read; {@link #absorb} folds a delta into an earlier record, and is the one merge rule the
 * store and the fresh-parse path share.
 *
 * @param title explicit title (custom title, AI title or summary line)
 * @param titleRank how authoritative {@code title} is (0 none; higher wins; among equals the later wins)
 * @param firstPrompt the first visible user prompt, used when there is no explicit title
 * @param parentSessionId for a subagent transcript, the session that spawned it
 * @param permissionMode the agent's permission mode as it last recorded it (for example {@code plan}), or null
 * @param recordedCost the session's cost as the agent itself last recorded it, or null
 */
public record SessionRecord(
    String id,
    String source,
    String title,
    int titleRank,
    String firstPrompt,
    String project,
    String cwd,
    String gitBranch,
    String version,
    String startedAt,
    String endedAt,
    long messageCount,
    CountMode countMode,
    String sourceFile,
    String parentSessionId,
    String permissionMode,
    RecordedCost recordedCost) implements TranscriptRecord {

  public SessionRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(countMode, "countMode");
  }

  /** A session whose agent recorded no permission mode and no cost of its own. */
  public SessionRecord(String id, String source, String title, int titleRank, String firstPrompt, String project,
      String cwd, String gitBranch, String version, String startedAt, String endedAt, long messageCount,
      CountMode countMode, String sourceFile, String parentSessionId) {
    this(id, source, title, titleRank, firstPrompt, project, cwd, gitBranch, version, startedAt, endedAt,
        messageCount, countMode, sourceFile, parentSessionId, null, null);
  }

  @Override
  public String sessionId() {
    return id;
  }

  /** The title to show: the explicit title, else the first prompt. */
  public String displayTitle() {
    return title != null ? title : firstPrompt;
  }

  /**
   * This record followed by {@code later} (a delta of the same session). Later non-null values win
   * for descriptive fields, the first prompt and start time keep the earliest, counts add up. The
   * result keeps this record's count mode.
   */
  public SessionRecord absorb(SessionRecord later) {
    if (!later.id.equals(id)) {
      throw new IllegalArgumentException("cannot merge session " + later.id + " into " + id);
    }
    if (later.countMode == CountMode.TOTAL) {
      return later;
    }
    return new SessionRecord(id, source,
        later.title != null && later.titleRank >= titleRank ? later.title : title,
        later.title != null && later.titleRank >= titleRank ? later.titleRank : titleRank,
        firstPrompt != null ? firstPrompt : later.firstPrompt,
        later.project != null ? later.project : project,
        later.cwd != null ? later.cwd : cwd,
        later.gitBranch != null ? later.gitBranch : gitBranch,
        later.version != null ? later.version : version,
        min(startedAt, later.startedAt),
        max(endedAt, later.endedAt),
        messageCount + later.messageCount,
        countMode,
        later.sourceFile != null ? later.sourceFile : sourceFile,
        parentSessionId != null ? parentSessionId : later.parentSessionId,
        later.permissionMode != null ? later.permissionMode : permissionMode,
        // cumulative: the later figure already includes the earlier one
        later.recordedCost != null ? later.recordedCost : recordedCost);
  }

  public SessionRecord withCountMode(CountMode mode) {
    return new SessionRecord(id, source, title, titleRank, firstPrompt, project, cwd, gitBranch, version, startedAt, endedAt,
        messageCount, mode, sourceFile, parentSessionId, permissionMode, recordedCost);
  }

  // Timestamps are normalised ISO-8601 instants, so string order is time order.
  private static String min(String a, String b) {
    if (a == null) return b;
    if (b == null) return a;
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String max(String a, String b) {
    if (a == null) return b;
    if (b == null) return a;
    return a.compareTo(b) >= 0 ? a : b;
  }
}
