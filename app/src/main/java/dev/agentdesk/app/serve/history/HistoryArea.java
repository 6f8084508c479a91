package dev.agentdesk.app.serve.history;

import dev.agentdesk.app.history.UsageLimitsView;
import dev.agentdesk.app.history.StatuslineCommand;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.EventSnapshot;
import dev.agentdesk.app.serve.ImportStatus;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.transcripts.Page;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.SearchFilter;
import dev.agentdesk.transcripts.SearchHit;
import dev.agentdesk.transcripts.SessionQuery;
import dev.agentdesk.transcripts.SessionSummary;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The history part of the API over the transcripts module: sessions, detail, search, usage, and
 * the background import that keeps the database current. Reads share one connection under a
 * lock (the transcripts API is single-threaded); the tailer writes through its own.
 */
public final class HistoryArea implements ApiArea, EventSnapshot {
  static final int MAX_PAGE = 500;
  static final int MAX_HITS = 200;

  private final ServeConfig config;
  private final EventHub events;
  private final TranscriptHistory reader;
  private final ReentrantLock readLock = new ReentrantLock();
  private final HistoryTailer tailer;
  private volatile Map<String, SessionSummary> summaries;
  private volatile PriceFiles.Loaded prices;
  /** Writes the limits terminals show, off the terminals' threads, one at a time. */
  private final java.util.concurrent.ExecutorService limitsWriter = java.util.concurrent.Executors
      .newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "history-limits");
        t.setDaemon(true);
        return t;
      });

  /** Opens the database (creating it) and prepares the tailer; nothing is imported until {@link #started}. */
  public HistoryArea(ServeConfig config, EventHub events) {
    this.config = config;
    this.events = events;
    this.reader = open(config);
    List<Importer.Root> roots = config.historyRoots();
    TranscriptHistory writer = config.importHistory() ? open(config) : null;
    this.tailer = writer == null ? null
        : new HistoryTailer(writer, roots, events, config.database().describe(), s -> summaries = null);
  }

  /**
   * Opens the configured history database (creating an SQLite file's folder), for a reader of its
   * own such as the MCP endpoint's; a failure is an {@code UNAVAILABLE} ServeException naming it.
   */
  public static TranscriptHistory openDatabase(ServeConfig config) {
    return open(config);
  }

  private static TranscriptHistory open(ServeConfig config) {
    String shown = config.database().describe();
    if (config.database() instanceof ServeConfig.Database.SqliteFile f) {
      // The store makes missing folders 0700 and the file 0600 (SqliteFiles).
      try {
        return TranscriptHistory.open(f.path());
      } catch (TranscriptException e) {
        throw new ServeException(ServeException.Reason.UNAVAILABLE,
            "cannot open the history database " + shown + ": " + e.getMessage(), e);
      }
    }
    String url = ((ServeConfig.Database.JdbcUrl) config.database()).url();
    try {
      return TranscriptHistory.openUrl(url);
    } catch (TranscriptException e) {
      // The module's message may quote the URL; never print its password.
      String why = String.valueOf(e.getMessage()).replace(url, shown);
      throw new ServeException(ServeException.Reason.UNAVAILABLE, "cannot open the history database " + shown + ": " + why, e);
    }
  }

  @Override
  public void started() {
    if (tailer != null) {
      tailer.start();
    }
  }

  @Override
  public List<ServerEvent> snapshot() {
    return List.of(new ServerEvent.ImportProgress(importStatus()));
  }

  ImportStatus importStatus() {
    if (tailer != null) {
      return tailer.status();
    }
    List<ImportStatus.Root> roots = config.historyRoots().stream().map(r -> new ImportStatus.Root(r.provider().id(),
        r.path().toString(), java.nio.file.Files.isDirectory(r.path()))).toList();
    return new ImportStatus("idle", roots, 0, 0, 0, 0, null, config.database().describe());
  }

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/history/import", ctx -> ctx.json(importStatus()));
    r.post("/api/history/import", ctx -> {
      if (tailer == null) {
        throw new ServeException(ServeException.Reason.CONFLICT,
            "this server was started with --no-import; use 'agentdesk history import' instead");
      }
      tailer.requestImport();
      ctx.status(202).json(importStatus());
    });
    r.get("/api/history/facets", ctx -> {
      Map<String, SessionSummary> all = summaries();
      TreeSet<String> providers = new TreeSet<>();
      TreeSet<String> projects = new TreeSet<>();
      for (SessionSummary s : all.values()) {
        providers.add(s.source());
        if (s.project() != null && !s.project().isBlank()) {
          projects.add(s.project());
        }
      }
      ctx.json(Map.of("providers", List.copyOf(providers), "projects", List.copyOf(projects)));
    });
    r.get("/api/history/sessions", this::sessions);
    r.get("/api/history/sessions/{id}", ctx -> {
      String id = ctx.pathParam("id");
      byte[] json = read(h -> DetailJson.writeUtf8(h.detail(id)));
      ctx.contentType("application/json").result(json);
    });
    r.get("/api/history/search", this::search);
    r.get("/api/history/usage", this::usage);
    r.get("/api/history/limits", ctx -> {
      Provider p = provider(ctx.queryParam("provider"));
      com.fasterxml.jackson.databind.node.ObjectNode o =
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
      UsageLimitsView.put(o, UsageLimitsView.of(read(TranscriptHistory::limits), p == null ? null : p.id()),
          java.time.Instant.now());
      ctx.json(o);
    });
    r.post("/api/history/statusline", this::statusline);
  }

  /** One session row as the API shows it. */
  record SessionJson(String id, String source, String title, String project, String cwd, String git_branch,
      String started_at, String ended_at, long message_count, String parent_session_id) {
    static SessionJson of(SessionSummary s) {
      return new SessionJson(s.id(), s.source(), s.title(), s.project(), s.cwd(), s.gitBranch(), s.startedAt(),
          s.endedAt(), s.messageCount(), s.parentSessionId());
    }
  }

  record SessionPage(long total, int offset, int limit, List<SessionJson> items) {}

  private void sessions(Context ctx) {
    int limit = intParam(ctx, "limit", 50, 1, MAX_PAGE);
    int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    Provider provider = provider(ctx.queryParam("provider"));
    String project = blankToNull(ctx.queryParam("project"));
    Page<SessionSummary> page = read(h -> h.sessions(new SessionQuery(provider, project, null, false, limit, offset)));
    ctx.json(new SessionPage(page.total(), page.offset(), limit, page.items().stream().map(SessionJson::of).toList()));
  }

  record Hit(String session_id, String session_title, String source, String project, String kind, String ref,
      String timestamp, double rank, List<Snippets.Part> snippet) {}

  record SearchResult(String query, List<Hit> hits) {}

  private void search(Context ctx) {
    String q = ctx.queryParam("q");
    if (q == null || q.isBlank()) {
      throw ServeException.badRequest("give the words to search for as ?q=");
    }
    if (q.length() > 500) {
      throw ServeException.badRequest("the search is too long (at most 500 characters)");
    }
    int limit = intParam(ctx, "limit", 50, 1, MAX_HITS);
    Provider provider = provider(ctx.queryParam("provider"));
    String project = blankToNull(ctx.queryParam("project"));
    // The filters are part of the ranked query, so a filtered search still fills its limit.
    List<SearchHit> raw = read(h -> h.search(q.trim(), new SearchFilter(provider, project, null), limit));
    Map<String, SessionSummary> all = summaries();
    List<Hit> hits = new ArrayList<>();
    for (SearchHit sh : raw) {
      SessionSummary s = all.get(sh.sessionId());
      hits.add(new Hit(sh.sessionId(), sh.sessionTitle(), s == null ? null : s.source(),
          s == null ? null : s.project(), sh.kind(), sh.ref(), s == null ? null : s.startedAt(), sh.rank(),
          Snippets.parts(sh.snippet())));
    }
    ctx.json(new SearchResult(q, hits));
  }

  private void usage(Context ctx) {
    ctx.json(UsageRoute.answer(ctx, this::read, prices()));
  }

  /**
   * {@code POST /api/history/statusline}: Claude Code's statusLine JSON in, the line of {@code agentdesk
   * statusline} out (text), from this server's open history. The launcher asks here first (one HTTP
   * request, no JVM start), so a status line refreshed every few hundred milliseconds stays cheap.
   */
  private void statusline(Context ctx) {
    ZoneId zone;
    Instant at;
    try {
      String tz = ctx.queryParam("timezone");
      zone = tz == null || tz.isBlank() ? ZoneId.systemDefault() : UsageQuery.parseZone(tz);
      String now = ctx.queryParam("now");
      at = now == null || now.isBlank() ? Instant.now() : Instant.parse(now);
    } catch (RuntimeException e) {
      throw ServeException.badRequest("timezone or now is not valid: " + e.getMessage());
    }
    byte[] body = ctx.bodyAsBytes();
    String line = read(h -> StatuslineCommand.line(body, h, prices().table(), at, zone));
    ctx.contentType("text/plain; charset=utf-8").result(line + "\n");
  }

  /**
   * What the imported session cost.
   *
   * @param usd in dollars at the history's prices, or null while the session is not imported, has no
   *     responses, or has a response whose model has no price (never a silent $0)
   * @param recordedUsd the cost the agent itself recorded for the session, or null when it records none
   */
  public record SessionCost(Double usd, Double recordedUsd) {}

  /** What the session {@code sessionId} cost, as far as the history knows ({@link SessionCost}). */
  public SessionCost cost(String sessionId) {
    try {
      UsageReport report = read(h -> h.usageReport(UsageGrouping.SESSION, prices().table(), sessionId));
      UsageRow total = report.total();
      Double recorded = report.recordedCostTotal();
      if (total.responses() == 0 || total.unpricedResponses() > 0 || !total.hasCost()) {
        return new SessionCost(null, recorded);
      }
      return new SessionCost(Math.round(total.costUsd() * 1e6) / 1e6, recorded);
    } catch (ServeException notImportedYet) {
      return new SessionCost(null, null);
    }
  }

  /** The price table, read once per server (a bad file is a warning in every usage answer). */
  private PriceFiles.Loaded prices() {
    PriceFiles.Loaded p = prices;
    if (p == null) {
      prices = p = PriceFiles.fromEnvironment().load();
    }
    return p;
  }

  /** Every session by id, for facets and for naming search hits; rebuilt after each import. */
  private Map<String, SessionSummary> summaries() {
    Map<String, SessionSummary> s = summaries;
    if (s == null) {
      Map<String, SessionSummary> all = new HashMap<>();
      int offset = 0;
      while (true) {
        int at = offset;
        Page<SessionSummary> page = read(h -> h.sessions(new SessionQuery(null, null, null, true, 1000, at)));
        page.items().forEach(x -> all.put(x.id(), x));
        offset += page.items().size();
        if (page.items().isEmpty() || offset >= page.total()) {
          break;
        }
      }
      summaries = s = all;
    }
    return s;
  }

  private <T> T read(Function<TranscriptHistory, T> query) {
    readLock.lock();
    try {
      return query.apply(reader);
    } catch (TranscriptException e) {
      throw translate(e);
    } finally {
      readLock.unlock();
    }
  }

  private static ServeException translate(TranscriptException e) {
    ServeException.Reason reason = switch (e.reason()) {
      case UNKNOWN_SESSION -> ServeException.Reason.NOT_FOUND;
      case BAD_QUERY -> ServeException.Reason.BAD_REQUEST;
      case DELTA_SESSION, INCOMPLETE_STREAM -> ServeException.Reason.CONFLICT;
      default -> ServeException.Reason.UNAVAILABLE;
    };
    return new ServeException(reason, e.getMessage(), e);
  }

  private static Provider provider(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    try {
      return Provider.parse(name);
    } catch (IllegalArgumentException e) {
      throw ServeException.badRequest(e.getMessage());
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  static int intParam(Context ctx, String name, int dflt, int min, int max) {
    String raw = ctx.queryParam(name);
    if (raw == null || raw.isBlank()) {
      return dflt;
    }
    int v;
    try {
      v = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw ServeException.badRequest(name + " must be a whole number, got '" + raw + "'");
    }
    if (v < min || v > max) {
      throw ServeException.badRequest(name + " must be between " + min + " and " + max + ", got " + v);
    }
    return v;
  }

  /**
   * A listener for one supervised terminal: the usage and rate limits it shows become its agent's
   * latest known windows ({@code GET /api/history/limits}), written on a thread of this area's.
   */
  public dev.agentdesk.terminal.session.SessionListener watchLimits() {
    return new TerminalLimits(l -> {
      try {
        limitsWriter.execute(() -> {
          try {
            read(h -> {
              h.recordLimits(List.of(l));
              return null;
            });
          } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(HistoryArea.class).warn("cannot store a terminal's usage limit: {}",
                e.getMessage());
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        // the server is stopping: the figure is lost, as the screen that showed it will be
      }
    }, java.time.Clock.systemDefaultZone());
  }

  @Override
  public void close() {
    limitsWriter.shutdown();
    try {
      limitsWriter.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (tailer != null) {
      tailer.close();
    }
    readLock.lock();
    try {
      reader.close();
    } finally {
      readLock.unlock();
    }
  }
}
