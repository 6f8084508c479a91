package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * OpenCode: {@code $XDG_DATA_HOME/opencode} ({@code ~/.local/share/opencode}). Before 1.2 it kept
 * one JSON file per object under {@code storage/}: {@code session/<project>/<session>.json},
 * {@code message/<session>/<message>.json} and {@code part/<message>/<part>.json} (some releases
 * wrote parts flat in {@code part/}, naming their message). Since 1.2 the same objects are rows of
 * the SQLite database {@code opencode.db} ({@code session}, {@code message}, {@code part}; a row's
 * {@code data} column holds the object as JSON). Files are rewritten in place, so a session is read
 * again only when the digest of its files changes; a database session only when its rows' count or
 * latest {@code time_updated} does ({@link OpenCodeDatabase}).
 */
public final class OpenCodeAdapter implements ProviderAdapter {
  static final String DATABASE = "opencode.db";

  @Override
  public Provider provider() {
    return Provider.OPENCODE;
  }

  /** {@code $XDG_DATA_HOME/opencode}, else {@code ~/.local/share/opencode}. */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    return List.of(Env.xdgData(env, home).resolve("opencode"));
  }

  @Override
  public List<SourceUnit> discover(Path root) throws IOException {
    if (Files.isRegularFile(root)) {
      if (root.getFileName().toString().endsWith(".db")) {
        return OpenCodeDatabase.units(root);
      }
      return unitFor(root).map(List::of).orElse(List.of());
    }
    List<SourceUnit> units = new ArrayList<>();
    Set<String> inDatabase = new HashSet<>();
    Path db = root.resolve(DATABASE);
    if (Files.isRegularFile(db)) {
      for (SourceUnit u : OpenCodeDatabase.units(db)) {
        units.add(u);
        inDatabase.add(u.sessionId());
      }
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path f : s.filter(Files::isRegularFile).filter(OpenCodeAdapter::isSessionFile).sorted().toList()) {
        // 1.2 copies the JSON storage into the database and leaves the files: read each session once.
        unitFor(f).filter(u -> !inDatabase.contains(u.sessionId())).ifPresent(units::add);
      }
    }
    return units;
  }

  private static boolean isSessionFile(Path f) {
    if (!f.getFileName().toString().endsWith(".json")) {
      return false;
    }
    Path dir = f.getParent();
    return dir != null && (named(dir, "session") || named(dir.getParent(), "session"));
  }

  private static boolean named(Path p, String name) {
    return p != null && p.getFileName() != null && p.getFileName().toString().equals(name);
  }

  /** The {@code storage} folder of a session file: the parent of its {@code session} folder. */
  private static Path storage(Path sessionFile) {
    Path dir = sessionFile.toAbsolutePath().getParent();
    Path session = named(dir, "session") ? dir : dir.getParent();
    return session == null ? null : session.getParent();
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    String name = file.toString();
    return name.endsWith(".db") || name.contains(".db#") || storage(file) != null && isSessionFile(file);
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".json") || storage(file) == null) {
      return Optional.empty();
    }
    JsonNode s = readSmall(file);
    String stem = name.substring(0, name.length() - ".json".length());
    String id = s != null && Json.str(s, "id") != null ? Json.str(s, "id") : stem;
    return Optional.of(new SourceUnit(Provider.OPENCODE, file, id, s == null ? null : Json.str(s, "parentID"), null));
  }

  private static JsonNode readSmall(Path file) {
    try {
      return JsonlScan.MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The session a just-launched OpenCode writes: since 1.2 the earliest top-level session of
   * {@code opencode.db} created since the launch in the launch folder and not claimed, located as
   * {@code opencode.db#<session id>} (the form {@code Transcripts.parse} reads); before 1.2 the
   * newest session file of the JSON storage that names the launch folder.
   */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    for (Path root : roots) {
      Path db = root.resolve(DATABASE);
      if (Files.isRegularFile(db)) {
        Optional<String> id = OpenCodeDatabase.launched(db, launch);
        if (id.isPresent()) {
          return Optional.of(new LiveTranscripts.Located(Provider.OPENCODE, id.get(), Path.of(db + "#" + id.get())));
        }
      }
    }
    return LiveLocate.newestNamingCwd(Provider.OPENCODE, roots, launch, OpenCodeAdapter::isSessionFile, this::unitFor);
  }

  /**
   * A database session ({@code opencode.db#<id>}) changes without its file growing (writes go to
   * the write-ahead log, which a checkpoint folds back): its version is the size and modification
   * time of the database and of its {@code -wal}.
   */
  @Override
  public long liveVersion(Path file) throws IOException {
    String name = file.toString();
    int hash = name.lastIndexOf('#');
    if (Files.exists(file) || hash < 0) {
      return ProviderAdapter.super.liveVersion(file);
    }
    Path db = Path.of(name.substring(0, hash));
    long v = Files.size(db) * 31 + Files.getLastModifiedTime(db).toMillis();
    Path wal = Path.of(db + "-wal");
    if (Files.exists(wal)) {
      v = v * 31 + Files.size(wal) * 31 + Files.getLastModifiedTime(wal).toMillis();
    }
    return v;
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    if (unit.part() != null) {
      return OpenCodeDatabase.parse(unit, cursor);
    }
    Path storage = storage(unit.file());
    List<Path> files = new ArrayList<>();
    files.add(unit.file());
    List<Path> messages = list(storage.resolve("message").resolve(unit.sessionId()));
    files.addAll(messages);
    // Parts of a message are in part/<message>/, or (some releases) flat in part/ naming their message.
    Map<String, List<Path>> partsOf = new LinkedHashMap<>();
    Set<String> messageIds = new HashSet<>();
    for (Path m : messages) {
      JsonNode info = readSmall(m);
      String mid = info == null ? null : Json.str(info, "id");
      if (mid == null) {
        mid = m.getFileName().toString().replaceAll("\\.json$", "");
      }
      messageIds.add(mid);
      partsOf.put(mid, new ArrayList<>(list(storage.resolve("part").resolve(mid))));
    }
    for (Path flat : list(storage.resolve("part"))) {
      JsonNode p = readSmall(flat);
      String mid = p == null ? null : Json.str(p, "messageID");
      if (mid != null && messageIds.contains(mid)) {
        partsOf.get(mid).add(flat);
      }
    }
    partsOf.values().forEach(files::addAll);
    SessionAccumulator empty = new SessionAccumulator();
    return WholeFile.parse(unit, cursor, files, (docs, problems) -> assemble(unit, docs, storage, problems),
        () -> empty.toRecord(unit, false));
  }

  private static WholeFile.Parsed assemble(SourceUnit unit, List<WholeFile.Doc> docs, Path storage,
      List<LineProblem> problems) {
    JsonNode session = null;
    Map<String, OpenCodeSessions.Message> messages = new LinkedHashMap<>();
    List<JsonNode> parts = new ArrayList<>();
    Path messageDir = storage.resolve("message");
    for (WholeFile.Doc d : docs) {
      JsonNode j = d.json();
      if (j != null && !j.isObject()) {
        problems.add(new LineProblem(d.file().toString(), 1, "not a JSON object"));
        continue;
      }
      if (j == null) {
        continue;
      }
      if (d.file().equals(unit.file())) {
        session = j;
      } else if (d.file().toAbsolutePath().startsWith(messageDir.toAbsolutePath())) {
        String id = Json.str(j, "id") != null ? Json.str(j, "id")
            : d.file().getFileName().toString().replaceAll("\\.json$", "");
        if (Json.str(j, "id") == null) {
          ((ObjectNode) j).put("id", id);
        }
        messages.put(id, new OpenCodeSessions.Message(j, new ArrayList<>()));
      } else {
        if (Json.str(j, "messageID") == null) {
          // part/<message>/<part>.json: the folder names the message
          ((ObjectNode) j).put("messageID", d.file().getParent().getFileName().toString());
        }
        parts.add(j);
      }
    }
    for (JsonNode p : parts) {
      OpenCodeSessions.Message m = messages.get(Json.str(p, "messageID"));
      if (m != null) {
        m.parts().add(p);
      }
    }
    return OpenCodeSessions.read(unit, session, new ArrayList<>(messages.values()));
  }

  private static List<Path> list(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".json")).sorted()
          .toList();
    } catch (IOException e) {
      throw new dev.agentdesk.transcripts.TranscriptException(
          dev.agentdesk.transcripts.TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot list " + dir + ": " + e.getMessage(), e);
    }
  }
}
