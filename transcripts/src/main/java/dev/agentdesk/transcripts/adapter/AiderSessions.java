package dev.agentdesk.transcripts.adapter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the sessions of one {@code .aider.chat.history.md} start: aider appends
 * {@code # aider chat started at YYYY-MM-DD HH:MM:SS} (local time, no zone) each time it starts, so
 * every such line opens a session that runs to the next one. The index of a file is kept between
 * imports of one process and extended by scanning only what was appended since.
 */
final class AiderSessions {
  static final String HEADER = "# aider chat started at ";
  private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);
  private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
  private static final int HEAD = 4096;
  private static final int CHUNK = 1 << 20;

  /** One session: its id part (the start time, with {@code -N} for a repeated one) and where its header line starts. */
  record Session(String part, long start, String startedAt) {}

  /** The sessions of a file as scanned up to {@code scanned} (a line start). */
  private record Index(String fileKey, String headHash, long scanned, List<Session> sessions) {}

  /** Indexes of recently seen files; an import pass over many projects reuses them. */
  private static final Map<Path, Index> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Path, Index> eldest) {
      return size() > 512;
    }
  };

  private AiderSessions() {}

  /** The sessions of {@code file}, in file order. */
  static List<Session> of(Path file) throws IOException {
    Path key = file.toAbsolutePath().normalize();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      String fileKey = JsonlScan.fileKey(file);
      long size = ch.size();
      String head = JsonlScan.headHash(ch, HEAD);
      Index known;
      synchronized (CACHE) {
        known = CACHE.get(key);
      }
      Index index;
      if (known != null && known.fileKey.equals(fileKey) && known.headHash.equals(head) && size >= known.scanned) {
        index = size == known.scanned ? known : scan(ch, fileKey, head, known.scanned, size, known.sessions);
      } else {
        index = scan(ch, fileKey, head, 0, size, List.of());
      }
      synchronized (CACHE) {
        CACHE.put(key, index);
      }
      return index.sessions;
    }
  }

  /** Adds the headers of the complete lines in [from, size) to {@code before}. */
  private static Index scan(FileChannel ch, String fileKey, String head, long from, long size, List<Session> before)
      throws IOException {
    List<Session> sessions = new ArrayList<>(before);
    Map<String, Integer> seen = new HashMap<>();
    for (Session s : sessions) {
      seen.merge(s.startedAt(), 1, Integer::sum);
    }
    long lineStart = from;
    long pos = from;
    ByteBuffer buf = ByteBuffer.allocate(CHUNK);
    byte[] line = new byte[HEADER.length() + 19];
    int lineLen = 0;
    while (pos < size) {
      buf.clear();
      int n = ch.read(buf, pos);
      if (n <= 0) {
        break;
      }
      byte[] a = buf.array();
      for (int i = 0; i < n; i++) {
        byte b = a[i];
        if (b == '\n') {
          header(line, lineLen, lineStart, sessions, seen);
          lineStart = pos + i + 1;
          lineLen = 0;
        } else if (lineLen < line.length) {
          line[lineLen++] = b;
        }
      }
      pos += n;
    }
    // An incomplete last line is looked at again when the file has grown.
    return new Index(fileKey, head, lineStart, List.copyOf(sessions));
  }

  private static void header(byte[] line, int len, long at, List<Session> sessions, Map<String, Integer> seen) {
    if (len < line.length) {
      return;
    }
    for (int i = 0; i < HEADER_BYTES.length; i++) {
      if (line[i] != HEADER_BYTES[i]) {
        return;
      }
    }
    String time = new String(line, HEADER_BYTES.length, 19, StandardCharsets.US_ASCII);
    LocalDateTime t;
    try {
      t = LocalDateTime.parse(time, STARTED);
    } catch (DateTimeParseException e) {
      return;
    }
    int n = seen.merge(time, 1, Integer::sum);
    String part = ID_TIME.format(t) + (n > 1 ? "-" + n : "");
    sessions.add(new Session(part, at, Json.timestampMillis(t.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli())));
  }
}
