package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Aider: {@code .aider.chat.history.md}, a markdown log aider appends to in the root of each
 * project (the git repository's top folder, else the folder it runs in). Every start of aider adds a
 * {@code # aider chat started at …} line; each is a session of its own (one unit per session, see
 * {@link AiderSessions}); the lines are read by {@link AiderBlocks}. There is no central folder:
 * {@link #discover} searches a named folder to a bounded depth, and {@link #projectFiles} finds the
 * file of a known project folder.
 */
public final class AiderAdapter implements ProviderAdapter {
  /** The name aider gives the file unless told otherwise ({@code --chat-history-file}). */
  static final String FILE_NAME = ".aider.chat.history.md";
  /** How far below a named folder to look: the folder, and projects up to three levels down. */
  static final int SEARCH_DEPTH = 3;
  /** Folders that hold no project of their own and can be huge. */
  private static final Set<String> SKIPPED = Set.of("node_modules", "target", "build", "dist", "venv", "vendor",
      "__pycache__", "site-packages");
  private static final int HEAD = 4096;

  @Override
  public Provider provider() {
    return Provider.AIDER;
  }

  /**
   * Aider has no folder of its own; {@code $AIDER_CHAT_HISTORY_FILE} (aider's variable for
   * {@code --chat-history-file}) names one file when it is an absolute path. Projects are found
   * through {@link #projectFiles} and {@code --aider DIR}.
   */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path file = Env.dir(env, "AIDER_CHAT_HISTORY_FILE");
    return file == null ? List.of() : List.of(file);
  }

  @Override
  public int searchDepth() {
    return SEARCH_DEPTH;
  }

  /** {@code .aider.chat.history.md} in {@code folder} or a folder above it up to its git repository's top. */
  @Override
  public List<Path> projectFiles(Path folder) {
    List<Path> files = new ArrayList<>();
    Path dir = folder.toAbsolutePath().normalize();
    for (int up = 0; dir != null && up < 12; up++, dir = dir.getParent()) {
      Path f = dir.resolve(FILE_NAME);
      if (Files.isRegularFile(f)) {
        files.add(f);
      }
      if (Files.exists(dir.resolve(".git"))) {
        break;
      }
    }
    return files;
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    return file.getFileName() != null && file.getFileName().toString().endsWith(FILE_NAME)
        || head.stream().anyMatch(l -> l.startsWith(AiderSessions.HEADER));
  }

  /**
   * The session a just-launched aider started in the folder it runs in: the first one of the
   * folder's history file whose header is no earlier than the launch (aider writes local time to
   * the second) and that no other agent session links. A file holds many sessions, so the link
   * names this one as {@code FILE#SESSION_ID}, which {@code Transcripts.parse} reads alone.
   */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    Path file = launch.cwd().resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    long since = launch.spawnedAt().toEpochMilli() - LiveTranscripts.CLOCK_SLACK_MS - 999;
    try {
      String project = projectHash(file);
      for (AiderSessions.Session s : AiderSessions.of(file)) {
        String id = sessionId(project, s);
        if (s.startedAt() != null && java.time.Instant.parse(s.startedAt()).toEpochMilli() >= since
            && !launch.claimed().contains(id)) {
          return Optional.of(new LiveTranscripts.Located(Provider.AIDER, id, Path.of(file + "#" + id)));
        }
      }
    } catch (IOException | java.time.format.DateTimeParseException e) {
      // being written or replaced: the next poll looks again
    }
    return Optional.empty();
  }

  /** A file holds many sessions, so a file alone is never one unit: see {@link #discover}. */
  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    return Optional.empty();
  }

  /** The sessions of {@code root} (a history file of any name), or of every history file below the folder {@code root}. */
  @Override
  public List<SourceUnit> discover(Path root) throws IOException {
    if (Files.isRegularFile(root)) {
      return units(root);
    }
    List<SourceUnit> units = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root, SEARCH_DEPTH + 1)) {
      List<Path> files = s.filter(p -> p.getFileName() != null && p.getFileName().toString().equals(FILE_NAME))
          .filter(p -> !skipped(root, p)).filter(Files::isRegularFile).sorted().toList();
      for (Path f : files) {
        units.addAll(units(f));
      }
    }
    return units;
  }

  /** A file under a hidden or generated folder (a dependency's checkout) is not a project's. */
  private static boolean skipped(Path root, Path file) {
    Path rel = root.relativize(file);
    for (int i = 0; i < rel.getNameCount() - 1; i++) {
      String name = rel.getName(i).toString();
      if (name.startsWith(".") || SKIPPED.contains(name)) {
        return true;
      }
    }
    return false;
  }

  private static List<SourceUnit> units(Path file) throws IOException {
    String project = projectHash(file);
    List<SourceUnit> units = new ArrayList<>();
    for (AiderSessions.Session s : AiderSessions.of(file)) {
      units.add(new SourceUnit(Provider.AIDER, file, sessionId(project, s), null, null, s.part()));
    }
    return units;
  }

  private static String sessionId(String projectHash, AiderSessions.Session s) {
    return "aider-" + projectHash + "-" + s.part();
  }

  /** Session ids name the project by its folder (8 hex of a SHA-256): the same time in two projects is two sessions. */
  private static String projectHash(Path file) {
    Path dir = file.toAbsolutePath().normalize().getParent();
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(String.valueOf(dir).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    Path file = unit.file();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      String fileKey = JsonlScan.fileKey(file);
      List<AiderSessions.Session> sessions = AiderSessions.of(file);
      int at = -1;
      for (int i = 0; i < sessions.size(); i++) {
        if (sessions.get(i).part().equals(unit.part())) {
          at = i;
        }
      }
      if (at < 0) {
        // The header is gone (the file was cut or cleared): what was read stays, nothing new comes.
        AiderBlocks gone = new AiderBlocks(unit, null, null, cursor == null ? null : cursor.state());
        return new ParseResult(List.of(gone.session.toRecord(unit, cursor == null)),
            cursor != null ? cursor : new Cursor(fileKey, 0, 0, "", null), List.of(), Map.of(), 0, true);
      }
      AiderSessions.Session session = sessions.get(at);
      long end = at + 1 < sessions.size() ? sessions.get(at + 1).start() : ch.size();
      String restart = null;
      ObjectNode state = AiderBlocks.state(cursor == null ? null : cursor.state());
      if (cursor != null) {
        if (!fileKey.equals(cursor.fileKey())) {
          restart = "file was replaced";
        } else if (state.path("start").asLong(-1) != session.start()) {
          restart = "file was rewritten";
        } else if (end < cursor.offset()) {
          restart = "file was truncated";
        } else if (!headHash(ch, session.start(), cursor.offset()).equals(cursor.headHash())) {
          restart = "file was rewritten";
        }
      }
      Cursor from = restart == null ? cursor : null;
      if (from != null && from.offset() == end) {
        AiderBlocks idle = new AiderBlocks(unit, session, ch, from.state());
        return new ParseResult(List.of(idle.session.toRecord(unit, false)), from, List.of(), Map.of(), 0, true);
      }
      AiderBlocks blocks = new AiderBlocks(unit, session, ch, from == null ? null : from.state());
      List<LineProblem> problems = new ArrayList<>();
      long consumed = blocks.read(from == null ? session.start() : from.offset(), from == null ? 0 : from.line(), end,
          ClaudeCodeAdapter.DEFAULT_BATCH_BYTES, problems);
      long startOffset = from == null ? session.start() : from.offset();
      Cursor next = new Cursor(fileKey, consumed, blocks.lineNo(), headHash(ch, session.start(), consumed),
          blocks.stateJson());
      List<TranscriptRecord> records = new ArrayList<>(blocks.records.size() + 2);
      if (restart != null) {
        records.add(new DeleteSessionRecord(unit.sessionId(), restart));
      }
      records.add(blocks.session.toRecord(unit, from == null));
      records.addAll(blocks.records);
      return new ParseResult(records, next, problems, blocks.ignored, consumed - startOffset,
          consumed >= end || blocks.waiting());
    } catch (IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Digest of the session's first bytes up to {@code upTo}, to notice a rewritten session. */
  static String headHash(FileChannel ch, long start, long upTo) throws IOException {
    int n = (int) Math.max(0, Math.min(HEAD, upTo - start));
    ByteBuffer bb = ByteBuffer.allocate(n);
    while (bb.hasRemaining()) {
      if (ch.read(bb, start + bb.position()) < 0) {
        break;
      }
    }
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(bb.array(), 0, bb.position());
      return n + ":" + HexFormat.of().formatHex(md.digest(), 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
