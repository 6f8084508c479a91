package dev.agentdesk.transcripts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.index.Importer;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants every transcript file must satisfy, checked end to end with a real database (SQLite
 * files by default; PostgreSQL databases in {@link PostgresCorpusTest}).
 */
final class Invariants {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Invariants() {}

  /** Opens a new, empty history; {@code sqliteFile} is where a SQLite one would live. */
  interface Databases {
    TranscriptHistory open(Path sqliteFile);
  }

  /** Runs every invariant on {@code file}, using {@code work} for databases and copies. */
  static void check(Provider provider, Path file, Path work) throws IOException {
    check(provider, file, work, TranscriptHistory::open);
  }

  /** Runs every invariant on {@code file}, with the histories {@code databases} opens. */
  static void check(Provider provider, Path file, Path work, Databases databases) throws IOException {
    Transcripts.FreshParse fresh = Transcripts.parse(provider, file);
    String freshJson = DetailJson.write(fresh.detail());

    // fresh-parse detail == persisted detail, byte for byte
    Path db = work.resolve("once.db");
    String sessionId = fresh.unit().sessionId();
    try (TranscriptHistory h = databases.open(db)) {
      h.importFrom(List.of(new Importer.Root(provider, file)), ImportListener.NONE);
      assertThat(DetailJson.write(h.detail(sessionId))).as("persisted detail of %s", file).isEqualTo(freshJson);
      // the bytes serve sends are the same document
      assertThat(DetailJson.writeUtf8(h.detail(sessionId))).as("UTF-8 detail of %s", file)
          .isEqualTo(freshJson.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      // importing twice == importing once
      ImportReport again = h.importFrom(List.of(new Importer.Root(provider, file)), ImportListener.NONE);
      assertThat(again.bytesRead()).isZero();
      assertThat(DetailJson.write(h.detail(sessionId))).as("detail after a second import").isEqualTo(freshJson);
    }

    // importing the file in appended pieces == importing it whole
    byte[] all = Files.readAllBytes(file);
    for (int pieces : new int[] {2, 3, 7}) {
      Path dir = work.resolve("pieces" + pieces);
      Files.createDirectories(dir);
      // Keep the last directories of the path: the adapter derives parent sessions from them.
      Path tail = file.subpath(Math.max(0, file.getNameCount() - 4), file.getNameCount());
      Path copy = dir.resolve(tail.toString());
      Files.createDirectories(copy.getParent());
      Files.deleteIfExists(copy);
      Files.createFile(copy);
      // companion files (a subagent's .meta.json) travel with the transcript
      String stem = file.getFileName().toString().replaceAll("\\.jsonl$", "");
      Path meta = file.resolveSibling(stem + ".meta.json");
      if (Files.exists(meta)) {
        Files.copy(meta, copy.resolveSibling(stem + ".meta.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      // and so do a session's workflow run files (<session>/workflows/<runId>.json)
      Path runs = file.resolveSibling(stem).resolve("workflows");
      if (Files.isDirectory(runs)) {
        Path runsCopy = Files.createDirectories(copy.resolveSibling(stem).resolve("workflows"));
        try (var list = Files.newDirectoryStream(runs, "*.json")) {
          for (Path run : list) {
            Files.copy(run, runsCopy.resolve(run.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      try (TranscriptHistory h = databases.open(dir.resolve("pieces.db"))) {
        for (int i = 1; i <= pieces; i++) {
          int from = (int) ((long) all.length * (i - 1) / pieces);
          int to = (int) ((long) all.length * i / pieces);
          try (OutputStream out = Files.newOutputStream(copy, StandardOpenOption.APPEND)) {
            out.write(all, from, to - from);
          }
          h.importFrom(List.of(new Importer.Root(provider, copy)), ImportListener.NONE);
        }
        String piecewise = DetailJson.write(h.detail(sessionId));
        assertThat(piecewise).as("%s imported in %d pieces", file, pieces).isEqualTo(freshJson);
      }
    }

    checkDetail(fresh, freshJson, file);
  }

  /** What must hold of one fresh parse and its detail JSON. */
  static void checkDetail(Transcripts.FreshParse fresh, String freshJson, Object file) throws IOException {
    JsonNode detail = MAPPER.readTree(freshJson);
    // no hidden envelope text in any detail
    for (TranscriptRecord r : fresh.records()) {
      if (r instanceof MessageRecord m && m.visibility() == Visibility.HIDDEN && m.text() != null
          && !m.text().isBlank()) {
        assertThat(freshJson).as("hidden text of %s leaks into the detail", m.uuid())
            .doesNotContain(MAPPER.writeValueAsString(m.text().strip()).replaceAll("^\"|\"$", ""));
      }
    }
    // every completed tool call has its result attached
    Set<String> calls = new HashSet<>();
    Set<String> completed = new HashSet<>();
    for (TranscriptRecord r : fresh.records()) {
      if (r instanceof ToolCallRecord c) {
        calls.add(c.id());
      } else if (r instanceof ToolResultRecord t) {
        completed.add(t.toolUseId());
      }
    }
    List<JsonNode> allEntries = new java.util.ArrayList<>();
    flatten(detail.get("entries"), allEntries);
    for (JsonNode e : allEntries) {
      if ("tool_call".equals(e.get("type").asText()) && completed.contains(e.get("id").asText())) {
        assertThat(e.get("result").isNull()).as("result of call %s", e.get("id")).isFalse();
      }
    }
    completed.retainAll(calls);
    long attached = 0;
    for (JsonNode e : allEntries) {
      if ("tool_call".equals(e.get("type").asText()) && completed.contains(e.get("id").asText())) {
        attached++;
      }
    }
    assertThat(attached).isEqualTo(completed.size());

    // usage equals the once-per-response sum (computed here independently: last record per
    // identity, then per response the copy with the largest output)
    Map<String, MessageRecord> byUuid = new HashMap<>();
    for (TranscriptRecord r : fresh.records()) {
      if (r instanceof MessageRecord m) {
        byUuid.put(m.uuid(), m);
      }
    }
    Map<String, long[]> perResponse = new HashMap<>();
    for (MessageRecord m : byUuid.values()) {
      if (m.usage() == null) {
        continue;
      }
      String key = m.responseId() != null ? m.responseId() : "uuid:" + m.uuid();
      long[] u = new long[] {m.usage().input(), m.usage().output(), m.usage().cacheRead(), m.usage().cacheCreation()};
      perResponse.merge(key, u, (a, b) -> a[1] >= b[1] ? a : b);
    }
    long[] sum = new long[4];
    perResponse.values().forEach(u -> {
      for (int i = 0; i < 4; i++) {
        sum[i] += u[i];
      }
    });
    JsonNode usage = detail.get("session").get("usage");
    assertThat(new long[] {usage.get("input_tokens").asLong(), usage.get("output_tokens").asLong(),
        usage.get("cache_read_tokens").asLong(), usage.get("cache_creation_tokens").asLong()})
        .as("usage of %s", file).containsExactly(sum);
  }

  /**
   * The invariants for a source whose sessions are not one append-only file each (an OpenCode storage
   * folder, an OpenCode database): every unit's fresh parse == its persisted detail, importing again
   * reads nothing, and the detail checks of {@link #check}.
   */
  static void checkSource(Provider provider, Path root, Path work, Databases databases) throws IOException {
    List<dev.agentdesk.transcripts.adapter.SourceUnit> units =
        dev.agentdesk.transcripts.adapter.ProviderAdapter.of(provider).discover(root);
    assertThat(units).as("units under %s", root).isNotEmpty();
    try (TranscriptHistory h = databases.open(work.resolve("source.db"))) {
      ImportReport first = h.importFrom(List.of(new Importer.Root(provider, root)), ImportListener.NONE);
      assertThat(first.problems()).as("problems importing %s", root).isEmpty();
      ImportReport again = h.importFrom(List.of(new Importer.Root(provider, root)), ImportListener.NONE);
      assertThat(again.bytesRead()).as("second import of %s", root).isZero();
      assertThat(again.filesChanged()).isZero();
      for (dev.agentdesk.transcripts.adapter.SourceUnit u : units) {
        Transcripts.FreshParse fresh = freshParse(u);
        assertThat(fresh.problems()).as("problems of %s", u.key()).isEmpty();
        String freshJson = DetailJson.write(fresh.detail());
        assertThat(DetailJson.write(h.detail(u.sessionId()))).as("persisted detail of %s", u.key())
            .isEqualTo(freshJson);
        checkDetail(fresh, freshJson, u.key());
      }
    }
  }

  /** A complete fresh parse of one unit. */
  static Transcripts.FreshParse freshParse(dev.agentdesk.transcripts.adapter.SourceUnit u) {
    return Transcripts.parse(u.provider(), u.part() == null ? u.file() : Path.of(u.file() + "#" + u.part()));
  }

  /** Entries with the threads of subagents written into the session's own file, depth first. */
  static void flatten(JsonNode entries, List<JsonNode> out) {
    for (JsonNode e : entries) {
      out.add(e);
      JsonNode sub = e.get("subagent");
      if (sub != null && sub.isObject() && sub.get("entries") != null) {
        flatten(sub.get("entries"), out);
      }
    }
  }
}
