package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.assemble.AssemblyInput;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.assemble.SessionDetailAssembler;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.store.TranscriptStore;
import dev.agentdesk.transcripts.store.TranscriptStore.UsageSample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The transcript history: import (and re-import to tail), list, detail, search and usage over
 * one database. This is the API the CLI and the server use. Not thread-safe; use one instance per
 * thread or serialise calls.
 */
public final class TranscriptHistory implements AutoCloseable {
  private final TranscriptStore store;

  private TranscriptHistory(TranscriptStore store) {
    this.store = store;
  }

  /** Opens (creating if needed) the SQLite database {@code dbFile}. */
  public static TranscriptHistory open(Path dbFile) {
    return new TranscriptHistory(TranscriptStore.openSqlite(dbFile));
  }

  /** Opens a database by JDBC URL ({@code jdbc:sqlite:FILE} in this build). */
  public static TranscriptHistory openUrl(String jdbcUrl) {
    return new TranscriptHistory(TranscriptStore.open(jdbcUrl));
  }

  /**
   * Imports what is new under the roots. Calling it again reads only what was appended since, so
   * it is also how a caller tails live sessions. Transcripts kept inside projects (Aider's) are
   * imported too for every working folder the history knows, once the roots are in.
   */
  public ImportReport importFrom(List<Importer.Root> roots, ImportListener listener) {
    ImportReport report = new Importer(store).run(roots, listener);
    List<Importer.Root> projects = HistoryFolders.projectRoots(store.workingFolders(), roots);
    if (projects.isEmpty()) {
      return report;
    }
    ImportListener problemsOnly = new ImportListener() {
      @Override
      public void problem(LineProblem problem) {
        listener.problem(problem);
      }
    };
    return report.plus(new Importer(store).run(projects, problemsOnly));
  }

  public Page<SessionSummary> sessions(SessionQuery query) {
    return store.sessions(query);
  }

  /**
   * The stored session {@code id}; an unambiguous prefix of an id also works.
   *
   * @throws TranscriptException {@code UNKNOWN_SESSION} when nothing (or more than one session) matches
   */
  public SessionDetail detail(String id) {
    String resolved = resolve(id);
    return SessionDetailAssembler.assembleSessionDetail(new AssemblyInput.PersistedRows(
        store.sessionRows(resolved).orElseThrow()));
  }

  /**
   * The full id of the stored session {@code id} or of the one session whose id starts with it.
   *
   * @throws TranscriptException {@code UNKNOWN_SESSION} when nothing (or more than one session) matches
   */
  public String resolveSessionId(String id) {
    return resolve(id);
  }

  private String resolve(String id) {
    if (store.hasSession(id)) {
      return id;
    }
    List<String> matches = store.sessionIdsStartingWith(id, 3);
    if (matches.size() == 1) {
      return matches.get(0);
    }
    throw new TranscriptException(TranscriptException.Reason.UNKNOWN_SESSION, matches.isEmpty()
        ? "no session " + id + " in the history (run 'agentdesk history import' first?)"
        : "'" + id + "' matches several sessions: " + String.join(", ", matches) + "; give more of the id");
  }

  public List<SearchHit> search(String query, int limit) {
    return store.search(query, limit);
  }

  /** Ranked matches within the sessions {@code filter} admits (applied before the limit). */
  public List<SearchHit> search(String query, SearchFilter filter, int limit) {
    return store.search(query, filter, limit);
  }

  /**
   * Token totals grouped by day, session, model, provider or project, from the aggregates the
   * import keeps (ADR 0018). Every model response is counted once across the whole history (a
   * response copied into a fork or written as several lines counts once); the copy with the largest
   * output count is the one counted. Responses with damaged counts are left out.
   */
  public List<UsageRow> usage(UsageGrouping by) {
    List<UsageRow> out = new ArrayList<>();
    for (UsageRow r : usageReport(by, PriceTable.bundled(), null).rows()) {
      out.add(new UsageRow(r.key(), r.responses(), r.usage()));
    }
    return out;
  }

  /**
   * The usage report with cost: each aggregate priced at its day's prices in {@code prices}.
   *
   * @param sessionId only this session's usage (a full id), or null for the whole history
   */
  public UsageReport usageReport(UsageGrouping by, PriceTable prices, String sessionId) {
    return usageReport(UsageQuery.of(by).session(sessionId), prices);
  }

  /**
   * The usage report of {@code query}: its filters keep responses, so the total is the sum of the
   * rows; periods and blocks in the query's time zone.
   */
  public UsageReport usageReport(UsageQuery query, PriceTable prices) {
    return UsageReports.build(store, query, prices, query.session() == null ? null : resolve(query.session()));
  }

  /** As {@link #usageReport(UsageQuery, PriceTable)}, every response read alone: what tests hold the aggregate reads to. */
  UsageReport usageReportPerResponse(UsageQuery query, PriceTable prices) {
    return UsageReports.build(store, query, prices, query.session() == null ? null : resolve(query.session()), true);
  }

  /**
   * The same token totals computed from every stored message, without the aggregates: the
   * reference the aggregates are tested against.
   */
  List<UsageRow> usageByScan(UsageGrouping by) {
    Map<String, UsageSample> best = new HashMap<>();
    store.forEachUsageMessage(m -> best.merge(m.responseId() != null ? "r:" + m.responseId()
        : "m:" + m.sessionId() + "\u0000" + m.uuid(), m, TranscriptHistory::better));
    Map<String, long[]> groups = new TreeMap<>();
    for (UsageSample m : best.values()) {
      if (!m.usage().plausible()) {
        continue;
      }
      String key = switch (by) {
        case DAY -> m.timestamp() == null ? "unknown" : m.timestamp().substring(0, 10);
        case SESSION -> m.sessionId();
        case MODEL -> m.model() == null ? "unknown" : m.model();
        case PROVIDER -> m.source();
        default -> throw new IllegalArgumentException("not by scan: " + by);
      };
      long[] g = groups.computeIfAbsent(key, k -> new long[6]);
      g[0]++;
      g[1] += m.usage().input();
      g[2] += m.usage().output();
      g[3] += m.usage().cacheRead();
      g[4] += m.usage().cacheCreation();
      g[5] += m.usage().cacheCreation1h();
    }
    List<UsageRow> out = new ArrayList<>(groups.size());
    groups.forEach((k, g) -> out.add(new UsageRow(k, g[0], new TokenUsage(g[1], g[2], g[3], g[4], g[5]))));
    return out;
  }

  private static UsageSample better(UsageSample a, UsageSample b) {
    if (a.usage().output() != b.usage().output()) {
      return a.usage().output() > b.usage().output() ? a : b;
    }
    int bySession = a.sessionId().compareTo(b.sessionId());
    if (bySession != 0) {
      return bySession < 0 ? a : b;
    }
    return a.ordinal() <= b.ordinal() ? a : b;
  }

  /**
   * Each provider's latest known usage windows (how full, how long, when they reset), as the agents'
   * files and supervised terminals reported them, by provider and window name.
   */
  public List<UsageLimit> limits() {
    return store.limits();
  }

  /** Records windows a supervised terminal showed; a window keeps a figure reported later than these. */
  public void recordLimits(List<UsageLimit> reported) {
    store.writeLimits(reported);
  }

  /** Lines skipped by earlier imports. */
  public List<LineProblem> problems(int limit) {
    return store.problems(limit);
  }

  @Override
  public void close() {
    store.close();
  }
}
