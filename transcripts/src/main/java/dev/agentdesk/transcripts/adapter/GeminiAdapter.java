package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini CLI: {@code ~/.gemini/tmp/<project>/chats/}. Releases before 0.40 write one JSON document
 * per session ({@code session-*.json}: metadata and a {@code messages} array), rewritten whole on
 * every change, so it is read again only when its digest changes. Current releases append JSONL
 * ({@code session-*.jsonl}): a metadata first line, then messages, {@code {"$set": {…}}} metadata
 * updates and {@code {"$rewindTo": id}} markers; a message is appended again in full under the same
 * id whenever it changes, and that copy replaces the earlier one (kept at the place of the first).
 * Subagent logs sit in {@code chats/<parent session id>/}. {@code <project>} is a slug of the
 * working directory's name, or in older releases its SHA-256; {@code .project_root} beside
 * {@code chats/} holds the directory. Checkpoints ({@code {"history": […]}}, from {@code /chat save})
 * are read when named directly.
 */
public final class GeminiAdapter implements ProviderAdapter {
  private static final Pattern SESSION_ID = Pattern.compile("\"sessionId\"\\s*:\\s*\"([^\"]{1,200})\"");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  /** Message ids (with their first offsets) kept in the cursor; a session has far fewer. */
  private static final int SEEN_LIMIT = 8192;

  @Override
  public Provider provider() {
    return Provider.GEMINI;
  }

  /** {@code $GEMINI_CLI_HOME/.gemini/tmp} (the variable stands in for the home folder), else {@code ~/.gemini/tmp}. */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path h = Env.dir(env, "GEMINI_CLI_HOME");
    return List.of((h != null ? h : home).resolve(".gemini").resolve("tmp"));
  }

  @Override
  public List<SourceUnit> discover(Path root) throws IOException {
    return LaidOutFiles.discover(root, "chats", this::unitFor);
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    String name = file.getFileName().toString();
    String first = head.isEmpty() ? "" : head.get(0);
    return name.endsWith(".json") || first.contains("\"projectHash\"") || first.contains("\"$set\"");
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    boolean jsonl = name.endsWith(".jsonl");
    if (!jsonl && !name.endsWith(".json") || name.equals("logs.json") || name.equals("projects.json")) {
      return Optional.empty();
    }
    String stem = name.substring(0, name.lastIndexOf('.'));
    String id = sessionIdFromHead(file);
    Path dir = file.toAbsolutePath().getParent();
    String parent = null;
    String agent = null;
    if (dir != null && dir.getFileName() != null && !dir.getFileName().toString().equals("chats")
        && dir.getParent() != null && dir.getParent().getFileName() != null
        && dir.getParent().getFileName().toString().equals("chats")) {
      // chats/<parent session id>/<subagent>.jsonl
      parent = dir.getFileName().toString();
      agent = stem;
    }
    return Optional.of(new SourceUnit(Provider.GEMINI, file, id != null ? id : stem, parent, agent));
  }

  /** The session id the file states in its first bytes (metadata comes before the messages). */
  private static String sessionIdFromHead(Path file) {
    byte[] head = new byte[4096];
    int n;
    try (InputStream in = Files.newInputStream(file)) {
      n = in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      return null;
    }
    String text = new String(head, 0, n, StandardCharsets.UTF_8);
    int messages = text.indexOf("\"messages\"");
    Matcher m = SESSION_ID.matcher(messages < 0 ? text : text.substring(0, messages));
    return m.find() ? m.group(1) : null;
  }

  @Override
  public TurnSignals turnSignals() {
    return new GeminiTurnSignals();
  }

  /**
   * The main chat file ({@code tmp/<project>/chats/*}, not a subagent's) written since the launch, of
   * the launch folder's project, that was started last. Started, not written: 0.61 restarts itself
   * after the trust dialog into a new chat file, and the new process then writes a summary into the
   * first one, so the first is the one modified last.
   */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return latestStarted(launch, roots, null);
  }

  /** A main chat file of the launch's project started after {@code current}: the process restarted into it. */
  @Override
  public Optional<LiveTranscripts.Located> successor(LiveTranscripts.Launch launch, LiveTranscripts.Located current,
      List<Path> roots) {
    return latestStarted(launch, roots, current);
  }

  private Optional<LiveTranscripts.Located> latestStarted(LiveTranscripts.Launch launch, List<Path> roots,
      LiveTranscripts.Located after) {
    java.time.Instant notBefore = launch.spawnedAt().minusMillis(LiveTranscripts.CLOCK_SLACK_MS);
    java.time.Instant floor = after == null ? null : started(after.file());
    if (after != null && floor == null) {
      return Optional.empty();
    }
    LiveTranscripts.Located best = null;
    java.time.Instant bestStart = null;
    for (Path root : roots) {
      List<Path> chats;
      try (java.util.stream.Stream<Path> projects = Files.list(root)) {
        chats = projects.map(p -> p.resolve("chats")).filter(Files::isDirectory).toList();
      } catch (IOException | java.io.UncheckedIOException e) {
        continue; // no such root yet
      }
      for (Path dir : chats) {
        Boolean marked = ofProject(dir.getParent(), launch.cwd());
        if (Boolean.FALSE.equals(marked)) {
          continue;
        }
        List<Path> files;
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
          files = s.filter(Files::isRegularFile).filter(f -> !LiveLocate.modifiedBefore(f, notBefore)).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
          continue;
        }
        for (Path f : files) {
          Optional<SourceUnit> unit = unitFor(f);
          java.time.Instant start = started(f);
          if (unit.isEmpty() || start == null || launch.claimed().contains(unit.get().sessionId())
              || marked == null && !namesCwd(f, launch.cwd())
              || after != null && (unit.get().sessionId().equals(after.sessionId()) || !start.isAfter(floor))
              || bestStart != null && !start.isAfter(bestStart)) {
            continue;
          }
          best = new LiveTranscripts.Located(Provider.GEMINI, unit.get().sessionId(), f);
          bestStart = start;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** The chat's {@code startTime} (its first line), else (an older chat) its modification time. */
  private static java.time.Instant started(Path f) {
    JsonNode first = LiveLocate.firstLine(f);
    java.time.Instant t = first == null ? null : LiveLocate.instant(Json.str(first, "startTime"));
    if (t != null) {
      return t;
    }
    try {
      return Files.getLastModifiedTime(f).toInstant();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Whether {@code project} ({@code tmp/<project>}) is {@code cwd}'s by its {@code .project_root}; null
   * when it has none (older releases): then each chat's head must name the folder.
   */
  private static Boolean ofProject(Path project, Path cwd) {
    Path marker = project.resolve(".project_root");
    try {
      if (Files.isRegularFile(marker)) {
        return LiveLocate.real(Path.of(Files.readString(marker).strip())).equals(cwd);
      }
    } catch (IOException | java.io.UncheckedIOException | java.nio.file.InvalidPathException e) {
      return false;
    }
    return null;
  }

  private static boolean namesCwd(Path f, Path cwd) {
    try {
      return LiveLocate.head(f).contains(cwd.toString());
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    if (unit.file().getFileName().toString().endsWith(".jsonl")) {
      return parseLog(unit, cursor);
    }
    SessionAccumulator empty = new SessionAccumulator();
    return WholeFile.parse(unit, cursor, List.of(unit.file()), (docs, problems) -> readChat(unit, docs.get(0),
        problems), () -> empty.toRecord(unit, false));
  }

  // ---- JSON chats (before 0.40) and checkpoints -----------------------------------------------

  private static WholeFile.Parsed readChat(SourceUnit unit, WholeFile.Doc doc, List<LineProblem> problems) {
    SessionAccumulator session = new SessionAccumulator();
    Map<String, Long> ignored = new TreeMap<>();
    project(unit, session);
    List<TranscriptRecord> body = new ArrayList<>();
    JsonNode root = doc.json();
    if (root != null && !root.isObject()) {
      problems.add(new LineProblem(unit.file().toString(), 1, "not a Gemini chat (a JSON " 
          + root.getNodeType().name().toLowerCase() + ", not an object)"));
    } else if (root != null) {
      JsonNode messages = root.get("messages");
      boolean checkpoint = messages == null && root.get("history") != null;
      if (checkpoint) {
        messages = root.get("history");
      }
      if (messages == null || !messages.isArray()) {
        problems.add(new LineProblem(unit.file().toString(), 1, "not a Gemini chat (no \"messages\" list)"));
      } else {
        session.title(Json.str(root, "summary"), 1);
        String model = Json.str(Json.obj(root, "meta"), "model");
        GeminiMessages reader = new GeminiMessages(unit, session, ignored);
        Set<String> counted = new HashSet<>();
        int index = 0;
        for (JsonNode m : messages) {
          index++;
          String id = Json.str(m, "id");
          if (id == null || counted.contains("dup:" + id)) {
            id = "m" + index;
          }
          counted.add("dup:" + id);
          try {
            body.addAll(reader.records(m, id, index, counted::add, model));
          } catch (JsonlScan.BadLine e) {
            problems.add(new LineProblem(unit.file().toString(), 1, "message " + index + ": " + e.getMessage()));
          }
        }
      }
    }
    List<TranscriptRecord> records = new ArrayList<>(body.size() + 1);
    records.add(session.toRecord(unit, true));
    records.addAll(body);
    return new WholeFile.Parsed(records, ignored);
  }

  /** The project of the {@code <project>/chats/…} folder: its {@code .project_root}, else a slug name. */
  private static void project(SourceUnit unit, SessionAccumulator session) {
    Path p = unit.file().toAbsolutePath().getParent();
    while (p != null && p.getFileName() != null && !p.getFileName().toString().equals("chats")) {
      p = p.getParent();
    }
    if (p == null || p.getParent() == null || p.getParent().getFileName() == null) {
      return;
    }
    Path projectDir = p.getParent();
    Path marker = projectDir.resolve(".project_root");
    try {
      if (Files.isRegularFile(marker)) {
        session.cwd(Files.readString(marker).strip());
        return;
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // unreadable marker: fall back to the folder's name
    }
    String name = projectDir.getFileName().toString();
    if (!SHA256.matcher(name).matches()) {
      // a slug of the working directory's name; a SHA-256 of the path cannot be turned back
      session.project = name;
    }
  }

  // ---- JSONL logs (0.40 and later) -------------------------------------------------------------

  private ParseResult parseLog(SourceUnit unit, Cursor cursor) {
    List<LineProblem> problems = new ArrayList<>();
    GeminiLog log = new GeminiLog(unit, cursor == null ? null : cursor.state(), cursor == null);
    JsonlScan.Outcome out = JsonlScan.scan(unit, cursor, Integer.MAX_VALUE - 16, log::line, problems, log::stateJson);
    String restart = out.restartReason();
    if (restart == null && !out.fromStart() && log.rewound) {
      // A rewind takes back messages stored by earlier reads: restate the session from the start.
      restart = "conversation was rewound";
    }
    if (restart != null) {
      log = new GeminiLog(unit, null, true);
      problems.clear();
      out = JsonlScan.scan(unit, null, Integer.MAX_VALUE - 16, log::line, problems, log::stateJson);
    }
    List<TranscriptRecord> records = new ArrayList<>();
    if (restart != null) {
      records.add(new DeleteSessionRecord(unit.sessionId(), restart));
    }
    records.add(log.session.toRecord(unit, out.fromStart()));
    records.addAll(log.records());
    return new ParseResult(records, out.next(), problems, log.ignored, out.bytesRead(), out.atEnd());
  }

  /** One read of a JSONL log, with the carry-over kept in the cursor (message ids seen and where). */
  private static final class GeminiLog {
    final SourceUnit unit;
    final SessionAccumulator session = new SessionAccumulator();
    final Map<String, Long> ignored = new TreeMap<>();
    final GeminiMessages reader;
    /** Message id -> [first offset, counted] of every message seen (earlier reads' come from the cursor). */
    final ObjectNode seen;
    /** This read's records by message id, in first-seen order; a re-appended copy replaces the group. */
    final java.util.LinkedHashMap<String, List<TranscriptRecord>> groups = new java.util.LinkedHashMap<>();
    /** Usage of responses taken back by a rewind: the tokens were spent all the same. */
    final List<TranscriptRecord> rewoundUsage = new ArrayList<>();
    final boolean fromStart;
    String model;
    boolean rewound;

    GeminiLog(SourceUnit unit, String state, boolean fromStart) {
      this.unit = unit;
      this.fromStart = fromStart;
      this.reader = new GeminiMessages(unit, session, ignored);
      ObjectNode s = null;
      if (state != null) {
        try {
          s = (ObjectNode) JsonlScan.MAPPER.readTree(state);
        } catch (Exception e) {
          s = null;
        }
      }
      seen = s != null && s.get("seen") instanceof ObjectNode o ? o : JsonlScan.MAPPER.createObjectNode();
      model = s != null ? Json.str(s, "model") : null;
      if (fromStart) {
        project(unit, session);
      }
    }

    String stateJson() {
      ObjectNode s = JsonlScan.MAPPER.createObjectNode();
      s.set("seen", seen);
      if (model != null) {
        s.put("model", model);
      }
      return s.toString();
    }

    List<TranscriptRecord> records() {
      List<TranscriptRecord> out = new ArrayList<>();
      groups.values().forEach(out::addAll);
      out.addAll(rewoundUsage);
      return out;
    }

    void line(ObjectNode node, long offset, long lineNo) {
      if (node.has("$rewindTo")) {
        rewind(Json.str(node, "$rewindTo"));
        return;
      }
      if (node.has("$set")) {
        JsonNode set = node.get("$set");
        if (!set.isObject()) {
          throw new JsonlScan.BadLine("\"$set\" is not an object");
        }
        metadata(set);
        if (set.has("messages")) {
          // The model's context after a compression or restart, not the conversation: shown as recorded.
          ignored.merge("$set messages", 1L, Long::sum);
        }
        return;
      }
      String id = Json.str(node, "id");
      if (id == null) {
        if (node.has("sessionId") || node.has("projectHash") || node.has("startTime")) {
          metadata(node);
          return;
        }
        throw new JsonlScan.BadLine("line is neither a message (no \"id\"), metadata, $set nor $rewindTo");
      }
      JsonNode first = seen.get(id);
      long position = first != null ? first.path(0).asLong(offset) : offset;
      if (first == null) {
        seen.set(id, JsonlScan.MAPPER.createArrayNode().add(offset).add(0));
        while (seen.size() > SEEN_LIMIT) {
          seen.remove(seen.fieldNames().next());
        }
      }
      if (Json.str(node, "model") != null) {
        model = Json.str(node, "model");
      }
      List<TranscriptRecord> recs = reader.records(node, id, position, this::countOnce, model);
      groups.remove(id);
      groups.put(id, recs);
    }

    private boolean countOnce(String id) {
      JsonNode s = seen.get(id);
      if (s == null || s.path(1).asInt(0) == 1) {
        return false;
      }
      ((com.fasterxml.jackson.databind.node.ArrayNode) s).set(1, 1);
      return true;
    }

    private void metadata(JsonNode m) {
      session.title(Json.str(m, "summary"), 1);
      JsonNode dirs = m.get("directories");
      if (dirs != null && dirs.isArray() && dirs.size() > 0 && dirs.get(0).isTextual()) {
        session.cwd(dirs.get(0).asText());
      }
    }

    /** Takes back message {@code id} and every message after it (what {@code /rewind} does). */
    private void rewind(String id) {
      rewound = true;
      if (!fromStart) {
        return; // the whole file is read again
      }
      if (id == null || !groups.containsKey(id)) {
        ignored.merge("$rewindTo (unknown message)", 1L, Long::sum);
        return;
      }
      boolean drop = false;
      for (var it = groups.entrySet().iterator(); it.hasNext();) {
        var e = it.next();
        drop |= e.getKey().equals(id);
        if (!drop) {
          continue;
        }
        JsonNode s = seen.remove(e.getKey());
        if (s != null && s.path(1).asInt(0) == 1) {
          session.messageCount--;
        }
        for (TranscriptRecord r : e.getValue()) {
          if (r instanceof dev.agentdesk.transcripts.records.MessageRecord m && m.usage() != null) {
            rewoundUsage.add(new dev.agentdesk.transcripts.records.MessageRecord(m.sessionId(), m.uuid() + "#rewound",
                null, m.ordinal(), m.timestamp(), "assistant", null, dev.agentdesk.transcripts.records.ContentTypes.USAGE,
                true, dev.agentdesk.transcripts.records.Visibility.HIDDEN, m.model(), false, null, m.responseId(),
                m.usage()));
          }
        }
        it.remove();
      }
    }
  }
}
