package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.TranscriptException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads complete JSON lines of a file from a cursor: notices rewritten, replaced and truncated
 * files, leaves an incomplete last line for the next read, and reports lines that are not JSON
 * objects without losing their neighbours.
 */
final class JsonlScan {
  static final ObjectMapper MAPPER = new ObjectMapper();
  /** A reader bound to the tree type once, rather than resolving it for every line. */
  private static final ObjectReader TREE = MAPPER.readerFor(JsonNode.class);
  private static final int HEAD_BYTES = 4096;

  /** Receives each JSON object line; throwing {@link BadLine} (or any runtime exception) skips it. */
  interface LineHandler {
    void line(ObjectNode node, long offset, long lineNumber);
  }

  /** A line that parsed as JSON but cannot be a record of this format. */
  static final class BadLine extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadLine(String reason) {
      super(reason, null, false, false);
    }
  }

  /** How a scan went. {@code restartReason} is non-null when a cursor was discarded. */
  record Outcome(boolean fromStart, String restartReason, Cursor next, long bytesRead, boolean atEnd) {}

  private JsonlScan() {}

  static Outcome scan(SourceUnit unit, Cursor cursor, long budget, LineHandler handler, List<LineProblem> problems,
      java.util.function.Supplier<String> stateAtEnd) {
    Path file = unit.file();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      String fileKey = fileKey(file);
      long size = ch.size();
      long start = 0;
      long lineNo = 0;
      String restart = null;
      if (cursor != null) {
        if (!fileKey.equals(cursor.fileKey())) {
          restart = "file was replaced";
        } else if (size < cursor.offset()) {
          restart = "file was truncated";
        } else if (!headHash(ch, cursor.offset()).equals(cursor.headHash())) {
          restart = "file was rewritten";
        } else {
          start = cursor.offset();
          lineNo = cursor.line();
        }
      }
      long pos = start;
      long avail = size - start;
      int len = (int) Math.min(avail, budget);
      byte[] buf = readFully(ch, pos, new byte[len], 0, len);
      int lastNewline = lastIndexOf(buf, len, (byte) '\n');
      while (lastNewline < 0 && len < avail) {
        // One line longer than the budget: keep reading until it ends.
        int more = (int) Math.min(avail - len, Math.max(len, 1024));
        buf = readFully(ch, pos + len, java.util.Arrays.copyOf(buf, len + more), len, more);
        len += more;
        lastNewline = lastIndexOf(buf, len, (byte) '\n');
      }
      boolean atEnd = pos + len >= size;
      int consumed = lastNewline + 1;
      int lineStart = 0;
      for (int i = 0; i < consumed; i++) {
        if (buf[i] == '\n') {
          lineNo++;
          handle(unit, buf, lineStart, i, pos + lineStart, lineNo, handler, problems);
          lineStart = i + 1;
        }
      }
      if (atEnd && consumed < len) {
        // A last line without a newline is taken only if it is already a complete JSON object;
        // otherwise it is a write in progress and is left for the next read.
        JsonNode tail = tryParse(buf, consumed, len - consumed);
        if (tail instanceof ObjectNode) {
          lineNo++;
          handle(unit, buf, consumed, len, pos + consumed, lineNo, handler, problems);
          consumed = len;
        } else if (isBlank(buf, consumed, len)) {
          consumed = len;
        }
      }
      long nextOffset = pos + consumed;
      Cursor next = new Cursor(fileKey, nextOffset, lineNo, headHash(ch, nextOffset), stateAtEnd.get());
      return new Outcome(start == 0, restart, next, nextOffset - start, atEnd);
    } catch (IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static void handle(SourceUnit unit, byte[] buf, int from, int to, long offset, long lineNo,
      LineHandler handler, List<LineProblem> problems) {
    if (isBlank(buf, from, to)) {
      return;
    }
    String notUtf8 = notUtf8(buf, from, to);
    if (notUtf8 != null) {
      problems.add(new LineProblem(unit.file().toString(), lineNo, "corrupt line: " + notUtf8));
      return;
    }
    JsonNode node;
    try {
      node = TREE.readValue(buf, from, to - from);
    } catch (IOException e) {
      problems.add(new LineProblem(unit.file().toString(), lineNo, "invalid JSON: " + firstLine(e.getMessage())));
      return;
    }
    if (Surrogates.mayHaveEscape(buf, from, to)) {
      node = Surrogates.repair(node);
    }
    if (!(node instanceof ObjectNode obj)) {
      problems.add(new LineProblem(unit.file().toString(), lineNo,
          "not a JSON object (" + (node == null ? "empty" : node.getNodeType().name().toLowerCase()) + ")"));
      return;
    }
    try {
      handler.line(obj, offset, lineNo);
    } catch (BadLine e) {
      problems.add(new LineProblem(unit.file().toString(), lineNo, e.getMessage()));
    } catch (RuntimeException e) {
      problems.add(new LineProblem(unit.file().toString(), lineNo, "unexpected line shape: " + e));
    }
  }

  /**
   * Why the line cannot be UTF-8 JSON text, or null. Lines are UTF-8; the parser would guess
   * UTF-16 or UTF-32 from NUL bytes or a UTF-16 byte-order mark at the start and then read garbage,
   * so such lines are refused here. (A NUL byte is invalid anywhere in JSON text, and 0xFE/0xFF never
   * occur in UTF-8.)
   */
  static String notUtf8(byte[] buf, int from, int to) {
    if (to > from && (buf[from] == (byte) 0xFE || buf[from] == (byte) 0xFF)) {
      return "starts with a UTF-16 byte-order mark, not UTF-8 text";
    }
    for (int i = from; i < to; i++) {
      if (buf[i] == 0) {
        return "contains a NUL byte at column " + (i - from + 1) + " (not UTF-8 JSON text)";
      }
    }
    return null;
  }

  private static byte[] readFully(FileChannel ch, long at, byte[] buf, int from, int count) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(buf, from, count);
    while (bb.hasRemaining()) {
      if (ch.read(bb, at + (bb.position() - from)) < 0) {
        throw new IOException("file shrank while it was read");
      }
    }
    return buf;
  }

  private static JsonNode tryParse(byte[] buf, int from, int len) {
    if (notUtf8(buf, from, from + len) != null) {
      return null;
    }
    try {
      return TREE.readValue(buf, from, len);
    } catch (IOException e) {
      return null;
    }
  }

  private static boolean isBlank(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return true;
  }

  private static int lastIndexOf(byte[] buf, int len, byte b) {
    for (int i = len - 1; i >= 0; i--) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  static String fileKey(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    Object key = a.fileKey();
    return key != null ? key.toString() : "created:" + a.creationTime().toMillis();
  }

  static String headHash(FileChannel ch, long upTo) throws IOException {
    int n = (int) Math.min(HEAD_BYTES, upTo);
    ByteBuffer bb = ByteBuffer.allocate(n);
    long p = 0;
    while (bb.hasRemaining()) {
      int r = ch.read(bb, p + bb.position());
      if (r < 0) {
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
