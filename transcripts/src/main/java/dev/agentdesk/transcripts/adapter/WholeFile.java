package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Sources that their agent rewrites whole (a JSON document per session) are read again only when
 * their content changed: the cursor holds a SHA-256 digest of everything the session was read
 * from. An unchanged source yields nothing; a changed one restates the session from the start
 * (a {@link DeleteSessionRecord} first when it was read before).
 */
final class WholeFile {
  private WholeFile() {}

  /** What one whole read made of a source. */
  interface Reader {
    /** The records of the session (its {@code TOTAL} session record first) from {@code docs}. */
    Parsed read(List<Doc> docs, List<LineProblem> problems);
  }

  /** One file of the source, parsed (null {@code json} when it is not valid JSON; the problem is reported). */
  record Doc(Path file, JsonNode json) {}

  /** Records of a whole read, and lines deliberately not turned into records. */
  record Parsed(List<TranscriptRecord> records, Map<String, Long> ignored) {}

  /**
   * Reads {@code files} (in that order) unless their digest equals {@code cursor}'s.
   *
   * @param fileKey the identity of the source (its main file's)
   */
  static ParseResult parse(SourceUnit unit, Cursor cursor, List<Path> files, Reader reader,
      java.util.function.Supplier<TranscriptRecord> emptyDelta) {
    List<LineProblem> problems = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>(files.size());
    long size = 0;
    String key;
    MessageDigest md = sha256();
    try {
      key = JsonlScan.fileKey(unit.file());
      for (Path f : files) {
        byte[] b = Files.readAllBytes(f);
        contents.add(b);
        size += b.length;
        md.update(f.getFileName().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        md.update((byte) 0);
        md.update(b);
      }
    } catch (IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read " + unit.file() + ": " + e.getMessage(), e);
    }
    String digest = "sha256:" + HexFormat.of().formatHex(md.digest());
    if (cursor != null && digest.equals(cursor.headHash())) {
      return new ParseResult(List.of(emptyDelta.get()), cursor, List.of(), Map.of(), 0, true);
    }
    List<Doc> docs = new ArrayList<>(files.size());
    boolean anyBroken = false;
    for (int i = 0; i < files.size(); i++) {
      JsonNode json = parseJson(files.get(i), contents.get(i), problems);
      anyBroken |= json == null;
      docs.add(new Doc(files.get(i), json));
    }
    if (cursor != null && anyBroken) {
      // A file is half-written (the agent rewrites it in place): keep what was read before rather than
      // lose that file's part of the session; the next pass reads it again.
      return new ParseResult(List.of(emptyDelta.get()), cursor, problems, Map.of(), 0, true);
    }
    Parsed parsed = reader.read(docs, problems);
    List<TranscriptRecord> records = new ArrayList<>(parsed.records().size() + 1);
    if (cursor != null) {
      records.add(new DeleteSessionRecord(unit.sessionId(), "file was rewritten"));
    }
    records.addAll(parsed.records());
    return new ParseResult(records, new Cursor(key, size, 0, digest, null), problems, parsed.ignored(), size, true);
  }

  /** The JSON of one file, or null (reported) when it is not UTF-8 JSON. */
  static JsonNode parseJson(Path file, byte[] b, List<LineProblem> problems) {
    String notUtf8 = JsonlScan.notUtf8(b, 0, b.length);
    if (notUtf8 != null) {
      problems.add(new LineProblem(file.toString(), 1, "corrupt file: " + notUtf8));
      return null;
    }
    try {
      JsonNode n = JsonlScan.MAPPER.readTree(b);
      if (n == null || n.isMissingNode()) {
        problems.add(new LineProblem(file.toString(), 1, "empty file"));
        return null;
      }
      return Surrogates.repair(n);
    } catch (IOException e) {
      String msg = e.getMessage() == null ? "unreadable" : e.getMessage().lines().findFirst().orElse("unreadable");
      problems.add(new LineProblem(file.toString(), 1, "invalid JSON: " + msg));
      return null;
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
