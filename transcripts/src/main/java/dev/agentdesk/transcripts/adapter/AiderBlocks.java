package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines of one aider session, as aider's {@code InputOutput} writes them: user input as
 * {@code #### } lines, tool output (notices, confirmations, command output, the {@code Tokens:}
 * report) as {@code > } lines (a multi-line notice continues on unprefixed lines right after), and
 * the model's reply as plain markdown after a blank line. Consecutive lines of one kind are one block.
 *
 * <p>The last block of a read may still grow (aider appends to it), so it is emitted as it stands
 * and the cursor remembers where it began: the next read starts there again and emits it whole
 * under the same id, which replaces the earlier copy. It is counted once.
 */
final class AiderBlocks {
  private static final Pattern TOKENS = Pattern.compile(
      "Tokens: ([0-9.,]+[kKmM]?) sent(?:, ([0-9.,]+[kKmM]?) cache write)?(?:, ([0-9.,]+[kKmM]?) cache (?:hit|read))?"
          + ", ([0-9.,]+[kKmM]?) received\\.?.*");
  /** {@code Main model: X with …} (or {@code Model:}, and {@code Models: X with …, weak model Y} before 0.40). */
  private static final Pattern MODEL = Pattern.compile("(?:Main model|Model|Models): (\\S+) with .*");
  private static final Pattern VERSION = Pattern.compile("Aider v(\\S+)");
  private static final String APPLIED = "Applied edit to ";
  private static final String RUNNING = "Running ";

  private enum Kind { USER, TOOL, ASSISTANT }

  final SourceUnit unit;
  final List<TranscriptRecord> records = new ArrayList<>();
  final SessionAccumulator session = new SessionAccumulator();
  final Map<String, Long> ignored = new TreeMap<>();
  private final ObjectNode state;
  private final FileChannel ch;
  private final String startedAt;
  private final long sessionStart;
  private long lineNo;
  private boolean waiting;

  // the block being read
  private Kind kind;
  private long blockAt;
  private long blockLine;
  private boolean blockCounted;
  private String modelAtBlock;
  private final List<String> lines = new ArrayList<>();
  private final List<Long> offsets = new ArrayList<>();
  private boolean inFence;

  static ObjectNode state(String json) {
    if (json != null) {
      try {
        if (JsonlScan.MAPPER.readTree(json) instanceof ObjectNode o) {
          return o;
        }
      } catch (IOException e) {
        // a cursor from another version: start over
      }
    }
    return JsonlScan.MAPPER.createObjectNode();
  }

  AiderBlocks(SourceUnit unit, AiderSessions.Session s, FileChannel ch, String stateJson) {
    this.unit = unit;
    this.ch = ch;
    this.state = state(stateJson);
    this.startedAt = s == null ? null : s.startedAt();
    this.sessionStart = s == null ? -1 : s.start();
    if (s != null) {
      state.put("start", s.start());
    }
    session.cwd(String.valueOf(unit.file().toAbsolutePath().normalize().getParent()));
  }

  String stateJson() {
    return state.toString();
  }

  long lineNo() {
    return lineNo;
  }

  /** True when the read stopped before an incomplete last line (a write in progress). */
  boolean waiting() {
    return waiting;
  }

  /**
   * Reads the complete lines from {@code offset} (line {@code line}) up to {@code end}, at most about
   * {@code budget} bytes, re-reading the open block of the previous read first; returns the offset
   * after the last line consumed.
   */
  long read(long offset, long line, long end, long budget, List<LineProblem> problems) throws IOException {
    long from = offset;
    lineNo = line;
    if (state.has("openAt") && state.get("openAt").asLong() < offset) {
      from = state.get("openAt").asLong();
      lineNo = state.path("openLine").asLong();
      String m = state.path("modelAtOpen").isTextual() ? state.get("modelAtOpen").asText() : null;
      state.remove("model");
      if (m != null) {
        state.put("model", m);
      }
    }
    long limit = Math.min(end, offset + budget);
    byte[] buf = readRange(from, limit);
    int last = lastNewline(buf);
    while (last < 0 && limit < end) {
      // One line longer than the budget: read on until it ends.
      limit = Math.min(end, limit + Math.max(budget, 1 << 20));
      buf = readRange(from, limit);
      last = lastNewline(buf);
    }
    int usable = last + 1;
    if (usable < buf.length) {
      waiting = limit >= end; // an incomplete last line at the end: the writer is still at it
    }
    if (startedAt != null) {
      session.seen(startedAt);
    }
    int lineStart = 0;
    for (int i = 0; i < usable; i++) {
      if (buf[i] == '\n') {
        lineNo++;
        long at = from + lineStart;
        line(buf, lineStart, i, at, at >= offset, problems);
        lineStart = i + 1;
      }
    }
    if (kind != null) {
      emit(false);
      state.put("openAt", blockAt);
      state.put("openLine", blockLine);
      state.put("openCounted", blockCounted);
      if (modelAtBlock == null) {
        state.remove("modelAtOpen");
      } else {
        state.put("modelAtOpen", modelAtBlock);
      }
    } else {
      state.remove("openAt");
    }
    return from + usable;
  }

  private byte[] readRange(long from, long to) throws IOException {
    ByteBuffer bb = ByteBuffer.allocate((int) Math.max(0, to - from));
    while (bb.hasRemaining()) {
      if (ch.read(bb, from + bb.position()) < 0) {
        throw new IOException("file shrank while it was read");
      }
    }
    return bb.array();
  }

  private static int lastNewline(byte[] buf) {
    for (int i = buf.length - 1; i >= 0; i--) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void line(byte[] buf, int from, int to, long at, boolean fresh, List<LineProblem> problems) {
    int end = to > from && buf[to - 1] == '\r' ? to - 1 : to;
    String bad = JsonlScan.notUtf8(buf, from, end);
    String text = null;
    if (bad == null) {
      try {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        text = d.decode(ByteBuffer.wrap(buf, from, end - from)).toString();
      } catch (CharacterCodingException e) {
        bad = "not UTF-8 text";
      }
    }
    if (bad != null) {
      if (fresh) {
        problems.add(new LineProblem(unit.file().toString(), lineNo, "corrupt line: " + bad));
      }
      return;
    }
    if (at == sessionStart && text.startsWith(AiderSessions.HEADER)) {
      return;
    }
    if (text.isBlank()) {
      // A reply keeps its blank lines; user input and tool output end at one (aider starts each
      // input, and each reply, with an empty line).
      if (kind == Kind.ASSISTANT) {
        add(text, at);
      } else if (kind != null) {
        emit(true);
        kind = null;
      }
      return;
    }
    Kind k;
    if (kind == Kind.ASSISTANT && inFence) {
      k = Kind.ASSISTANT;
    } else if (text.startsWith("#### ") || text.equals("####")) {
      k = Kind.USER;
    } else if (text.startsWith(">")) {
      k = Kind.TOOL;
    } else if (kind == Kind.TOOL) {
      k = Kind.TOOL; // the second line of a multi-line notice is written without its '>'
    } else {
      k = Kind.ASSISTANT;
    }
    if (k != kind) {
      if (kind != null) {
        emit(true);
      }
      kind = k;
      blockAt = at;
      blockLine = lineNo;
      blockCounted = state.path("openAt").asLong(-1) == at && state.path("openCounted").asBoolean(false);
      modelAtBlock = Json.str(state, "model");
      lines.clear();
      offsets.clear();
      inFence = false;
    }
    if (k == Kind.ASSISTANT && text.stripLeading().startsWith("```")) {
      inFence = !inFence;
    }
    add(text, at);
  }

  private void add(String text, long at) {
    lines.add(text);
    offsets.add(at);
  }

  /** Emits the current block; {@code closed} when a block of another kind follows it. */
  private void emit(boolean closed) {
    switch (kind) {
      case USER -> user(closed);
      case TOOL -> tool();
      case ASSISTANT -> assistant();
    }
  }

  private void user(boolean closed) {
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      String t = l.equals("####") ? "" : l.substring(5).stripTrailing();
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(t);
    }
    String text = sb.toString().strip();
    if (text.isEmpty() || text.equals("<blank>")) {
      if (closed) {
        ignore("user input (blank)");
      }
      return;
    }
    boolean command = text.startsWith("/") || text.startsWith("!");
    records.add(msg("L" + blockAt, blockAt, 0, "user", text, command ? ContentTypes.COMMAND : ContentTypes.TEXT, command,
        Visibility.VISIBLE, null));
    if (!command) {
      count();
      if (closed) {
        // Only a finished block: the first read of a growing one would see part of the text.
        session.firstPrompt(text);
      }
    }
  }

  /**
   * Tool output: the {@code Tokens:} report becomes a hidden usage record, {@code Aider v…} and
   * {@code Main model: …} set the version and model, {@code ^C again to exit} is an interrupt card,
   * {@code Applied edit to …} and {@code Running …} are tool calls, and the rest is shown as
   * command-output cards between them.
   */
  private void tool() {
    StringBuilder card = new StringBuilder();
    long cardAt = -1;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      long at = offsets.get(i);
      String t = (l.startsWith("> ") ? l.substring(2) : l.startsWith(">") ? l.substring(1) : l).strip();
      if (t.isEmpty()) {
        continue;
      }
      Matcher tokens = TOKENS.matcher(t);
      Matcher model = MODEL.matcher(t);
      Matcher version = VERSION.matcher(t);
      if (tokens.matches()) {
        usage(tokens, at);
        continue;
      }
      if (model.matches()) {
        state.put("model", model.group(1));
      } else if (version.matches()) {
        session.version(version.group(1));
      }
      TranscriptRecord own = null;
      if (t.equals("^C again to exit") || t.equals("^C KeyboardInterrupt")) {
        own = msg("L" + at + "#interrupt", at, 1, "user", "[Interrupted by user: " + t + "]", ContentTypes.INTERRUPT,
            true, Visibility.VISIBLE, null);
      } else if (t.startsWith(APPLIED) && t.length() > APPLIED.length()) {
        own = call(at, "edit", Presentations.EDIT, "path", t.substring(APPLIED.length()).strip(), true);
      } else if (t.startsWith(RUNNING) && t.length() > RUNNING.length()) {
        own = call(at, "run", Presentations.SHELL, "command", t.substring(RUNNING.length()).strip(), false);
      }
      if (own != null) {
        flushCard(card, cardAt);
        card.setLength(0);
        cardAt = -1;
        records.add(own);
        continue;
      }
      if (cardAt < 0) {
        cardAt = at;
      }
      if (card.length() > 0) {
        card.append('\n');
      }
      card.append(t);
    }
    flushCard(card, cardAt);
  }

  /**
   * What aider did, from its own notices: {@code Applied edit to FILE} (the edit itself is the
   * SEARCH/REPLACE text of the reply above) and {@code Running COMMAND} (a shell command it was
   * allowed to run). Their output is not recorded apart from the notices, so they have no result.
   */
  private ToolCallRecord call(long at, String name, String presentation, String field, String value, boolean file) {
    ObjectNode input = JsonlScan.MAPPER.createObjectNode().put(field, value);
    return new ToolCallRecord(unit.sessionId(), "L" + at, null, TranscriptRecord.ordinal(at, 1), startedAt, name,
        presentation, input.toString(), file ? value : null);
  }

  private void flushCard(StringBuilder card, long at) {
    if (card.length() > 0) {
      records.add(msg("L" + at, at, 0, "system", card.toString(), ContentTypes.COMMAND_OUTPUT, true, Visibility.VISIBLE,
          null));
    }
  }

  /**
   * {@code Tokens: S sent[, W cache write][, H cache hit], R received.}: aider's {@code sent} is
   * litellm's prompt tokens (cached input included) plus what was written to the cache; counts of
   * 1,000 and more are rounded ({@code 9.6k}, {@code 12k}).
   */
  private void usage(Matcher m, long at) {
    long sent = count(m.group(1));
    long write = count(m.group(2));
    long hit = count(m.group(3));
    long received = count(m.group(4));
    TokenUsage u = new TokenUsage(Math.max(0, sent - write - hit), received, hit, write);
    String id = "L" + at + "#usage";
    records.add(new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(at, 2), startedAt, "assistant",
        null, ContentTypes.USAGE, true, Visibility.HIDDEN, Json.str(state, "model"), false, null,
        "aider:" + unit.sessionId() + "/L" + at, u));
  }

  static long count(String s) {
    if (s == null) {
      return 0;
    }
    String v = s.replace(",", "");
    double scale = 1;
    char last = v.charAt(v.length() - 1);
    if (last == 'k' || last == 'K') {
      scale = 1_000;
      v = v.substring(0, v.length() - 1);
    } else if (last == 'm' || last == 'M') {
      scale = 1_000_000;
      v = v.substring(0, v.length() - 1);
    }
    try {
      return Math.round(Double.parseDouble(v) * scale);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void assistant() {
    int n = lines.size();
    while (n > 0 && lines.get(n - 1).isBlank()) {
      n--;
    }
    String text = String.join("\n", lines.subList(0, n));
    if (text.isBlank()) {
      return;
    }
    records.add(msg("L" + blockAt, blockAt, 0, "assistant", text, ContentTypes.TEXT, false, Visibility.VISIBLE,
        Json.str(state, "model")));
    count();
  }

  private void count() {
    if (!blockCounted) {
      blockCounted = true;
      session.messageCount++;
    }
  }

  private void ignore(String what) {
    ignored.merge(what, 1L, Long::sum);
  }

  private MessageRecord msg(String uuid, long at, int block, String role, String text, String contentType,
      boolean meta, Visibility v, String model) {
    return new MessageRecord(unit.sessionId(), uuid, null, TranscriptRecord.ordinal(at, block), startedAt, role, text,
        contentType, meta, v, model, false, null, null, null);
  }
}
