package dev.agentdesk.bench.history;

import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The history benchmark driver: full import with full-text indexing (MB/s), a parse-only pass,
 * incremental append of 100 lines to a large session, detail of the 20k-record session, and
 * full-text query latency. Prints one JSON object; {@code benchmarks/suites/history} turns it into
 * the docs/benchmarks.md section next to ccusage's numbers.
 *
 * <p>Usage: {@code HistoryBench CORPUS_DIR WORK_DIR}. One-shot operations (a whole import) are
 * timed once; repeated operations report the median (p50) of many runs after warm-up runs.
 */
public final class HistoryBench {
  private HistoryBench() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]);
    Path work = Files.createDirectories(Path.of(args[1]));
    Path db = work.resolve("history.db");
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    ImportOnly.Run run = ImportOnly.coldImport(corpus, db);
    ImportReport report = run.report();
    double importSec = run.seconds();
    out.put("import_bytes", report.bytesRead());
    out.put("import_seconds", importSec);
    out.put("import_mb_per_s", report.bytesRead() / 1e6 / importSec);
    out.put("import_records", report.records());
    out.put("import_files", report.filesSeen());
    out.put("db_bytes", Files.size(db));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      out.put("messages", count(s, "SELECT COUNT(*) FROM messages"));
      out.put("fts_documents", count(s, "SELECT COUNT(*) FROM search_fts_docsize"));
      out.put("big_session_records", count(s, "SELECT (SELECT COUNT(*) FROM messages WHERE session_id = '"
          + CorpusGenerator.BIG_SESSION + "') + (SELECT COUNT(*) FROM tool_calls WHERE session_id = '"
          + CorpusGenerator.BIG_SESSION + "') + (SELECT COUNT(*) FROM tool_results WHERE session_id = '"
          + CorpusGenerator.BIG_SESSION + "')"));
    }

    out.putAll(claudeUsage(db));
    // Cost per model of the corpus as imported (before the append runs below add to it): the figures
    // compared with ccusage's, which reads the same files.
    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (UsageRow r : h.usageReport(UsageGrouping.MODEL, dev.agentdesk.transcripts.cost.PriceTable.bundled(), null)
          .rows()) {
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        row.put("key", r.key());
        row.put("responses", r.responses());
        row.put("input_tokens", r.usage().input());
        row.put("output_tokens", r.usage().output());
        row.put("cache_read_tokens", r.usage().cacheRead());
        row.put("cache_creation_tokens", r.usage().cacheCreation());
        row.put("cost_usd", r.hasCost() ? r.costUsd() : null);
        rows.add(row);
      }
      out.put("usage_by_model", rows);
    }

    // Parse only (no database), Claude files: the pass comparable to ccusage's.
    List<Path> claudeFiles;
    try (Stream<Path> s = Files.walk(corpus.resolve("claude/projects"))) {
      claudeFiles = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
    }
    long p0 = System.nanoTime();
    long parsed = 0;
    for (Path f : claudeFiles) {
      parsed += Transcripts.parse(Provider.CLAUDE, f).records().size();
    }
    out.put("claude_parse_only_seconds", (System.nanoTime() - p0) / 1e9);
    out.put("claude_parse_only_records", parsed);

    try (TranscriptHistory h = TranscriptHistory.open(db)) {
      // usage as 'history usage --by provider' reports it
      for (UsageRow r : h.usage(UsageGrouping.PROVIDER)) {
        TokenUsage u = r.usage();
        out.put("usage_" + r.key(), Map.of("responses", r.responses(), "input", u.input(), "output", u.output(),
            "cache_read", u.cacheRead(), "cache_creation", u.cacheCreation()));
      }

      // detail of the ~20k-record session
      double[] detail = new double[25];
      for (int i = -5; i < detail.length; i++) {
        long d0 = System.nanoTime();
        // as serve answers GET /api/history/sessions/{id}: the detail JSON as UTF-8 bytes
        int len = DetailJson.writeUtf8(h.detail(CorpusGenerator.BIG_SESSION)).length;
        if (i >= 0) {
          detail[i] = (System.nanoTime() - d0) / 1e6;
        }
        if (len == 0) {
          throw new IllegalStateException("empty detail");
        }
      }
      out.put("detail_ms_p50", p(detail, 50));
      out.put("detail_ms_max", p(detail, 100));

      // full-text queries: one or two words of middling frequency
      String[] words = CorpusGenerator.queryWords(42, 500);
      double[] fts = new double[200];
      long hits = 0;
      for (int i = -20; i < fts.length; i++) {
        int k = (i + 20) * 2;
        String q = i % 2 == 0 ? words[k] : words[k] + " " + words[k + 1];
        long f0 = System.nanoTime();
        hits += h.search(q, 20).size();
        if (i >= 0) {
          fts[i] = (System.nanoTime() - f0) / 1e6;
        }
      }
      out.put("fts_ms_p50", p(fts, 50));
      out.put("fts_ms_p95", p(fts, 95));
      out.put("fts_hits", hits);

      // incremental: append 100 lines (25 turns of 4 lines) to a large session, import that file
      Path tailDir = Files.createDirectories(work.resolve("tail/projects/-home-bench-tail"));
      String tailId = "7a117a11-0000-4000-8000-000000000000";
      Path tail = tailDir.resolve(tailId + ".jsonl");
      Files.copy(corpus.resolve("claude/projects/-home-bench-big/" + CorpusGenerator.BIG_SESSION + ".jsonl"), tail,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      List<Importer.Root> tailRoot = List.of(new Importer.Root(Provider.CLAUDE, tail));
      h.importFrom(tailRoot, ImportListener.NONE);
      CorpusGenerator gen = new CorpusGenerator(7);
      double[] append = new double[30];
      long appended = 0;
      long lines = 0;
      for (int i = -5; i < append.length; i++) {
        long before = countLines(tail);
        // add turns until at least 100 lines were appended
        while (countLines(tail) - before < 100) {
          gen.appendClaudeTurns(tail, tailId, 1);
        }
        if (i >= 0) {
          lines += countLines(tail) - before;
        }
        long a0 = System.nanoTime();
        ImportReport r = h.importFrom(tailRoot, ImportListener.NONE);
        if (i >= 0) {
          append[i] = (System.nanoTime() - a0) / 1e6;
          appended += r.bytesRead();
        }
      }
      out.put("append_ms_p50", p(append, 50));
      out.put("append_ms_max", p(append, 100));
      out.put("append_bytes_per_run", appended / append.length);
      out.put("append_lines_per_run", lines / append.length);
    }
    System.out.println(json(out));
  }

  private static long countLines(Path f) throws IOException {
    try (Stream<String> s = Files.lines(f)) {
      return s.count();
    }
  }

  /**
   * Claude token totals two ways: each response once with its largest output (ours), and each
   * response once as its first line reports it (ccusage keeps the first line it sees of a
   * message id + request id).
   */
  private static Map<String, Object> claudeUsage(Path db) {
    Map<String, long[]> largest = new HashMap<>();
    Map<String, long[]> first = new HashMap<>();
    try (TranscriptStore store = TranscriptStore.openSqlite(db)) {
      store.forEachUsageMessage(m -> {
        if (!m.source().equals(Provider.CLAUDE.id())) {
          return;
        }
        String key = m.responseId() != null ? m.responseId() : m.sessionId() + "/" + m.uuid();
        TokenUsage u = m.usage();
        long[] v = {m.ordinal(), u.input(), u.output(), u.cacheRead(), u.cacheCreation()};
        largest.merge(key, v, (a, b) -> a[2] >= b[2] ? a : b);
        first.merge(key, v, (a, b) -> a[0] <= b[0] ? a : b);
      });
    }
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("claude_responses", largest.size());
    out.put("claude_largest", sum(largest));
    out.put("claude_first_line", sum(first));
    return out;
  }

  private static Map<String, Long> sum(Map<String, long[]> m) {
    long[] t = new long[5];
    m.values().forEach(v -> {
      for (int i = 1; i < 5; i++) {
        t[i] += v[i];
      }
    });
    return Map.of("input", t[1], "output", t[2], "cache_read", t[3], "cache_creation", t[4]);
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static double p(double[] values, int pct) {
    double[] v = values.clone();
    Arrays.sort(v);
    int i = (int) Math.ceil(pct / 100.0 * v.length) - 1;
    return v[Math.max(0, Math.min(v.length - 1, i))];
  }

  private static String json(Object o) {
    if (o instanceof Map<?, ?> m) {
      List<String> parts = new ArrayList<>();
      m.forEach((k, v) -> parts.add("\"" + k + "\":" + json(v)));
      return "{" + String.join(",", parts) + "}";
    }
    if (o instanceof List<?> l) {
      List<String> parts = new ArrayList<>();
      l.forEach(v -> parts.add(json(v)));
      return "[" + String.join(",", parts) + "]";
    }
    if (o == null) {
      return "null";
    }
    if (o instanceof Double d) {
      return String.format(Locale.ROOT, "%.3f", d);
    }
    if (o instanceof Number || o instanceof Boolean) {
      return o.toString();
    }
    return "\"" + o + "\"";
  }
}
