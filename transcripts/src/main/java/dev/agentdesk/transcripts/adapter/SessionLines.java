package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * What one read of a JSONL session file gathers: the records its lines made, the session's facts,
 * the line kinds skipped, and the carry-over the cursor keeps for the next read. The adapters' line
 * parsers extend it so that the read itself (scan from the cursor; start over clean when the cursor
 * no longer fits the file) and the shape of its result are written once.
 */
abstract class SessionLines implements JsonlScan.LineHandler {
  final List<TranscriptRecord> records = new ArrayList<>();
  final SessionAccumulator session = new SessionAccumulator();
  final Map<String, Long> ignored = new TreeMap<>();

  /** The carry-over for the next read, kept in the cursor. */
  abstract String stateJson();

  final void ignore(String kind) {
    ignored.merge(kind, 1L, Long::sum);
  }

  /** The cursor's carry-over as an object; null when there is none or it does not parse (a fresh start). */
  static ObjectNode stateObject(String stateJson) {
    if (stateJson == null) {
      return null;
    }
    try {
      return JsonlScan.MAPPER.readTree(stateJson) instanceof ObjectNode o ? o : null;
    } catch (Exception e) {
      return null;
    }
  }

  /**
   * Reads {@code unit} from {@code cursor} with a parser made from the cursor's carry-over. When the
   * scan discards the cursor (the file was replaced, truncated or rewritten) that pass started from
   * a carry-over of the old file, so it is read again from the start with a clean parser.
   */
  static <P extends SessionLines> Read<P> read(SourceUnit unit, Cursor cursor, long budget,
      BiFunction<SourceUnit, String, P> parser) {
    List<LineProblem> problems = new ArrayList<>();
    P lines = parser.apply(unit, cursor == null ? null : cursor.state());
    JsonlScan.Outcome out = JsonlScan.scan(unit, cursor, budget, lines, problems, lines::stateJson);
    String restart = out.restartReason();
    if (restart != null) {
      lines = parser.apply(unit, null);
      problems.clear();
      out = JsonlScan.scan(unit, null, budget, lines, problems, lines::stateJson);
    }
    return new Read<>(lines, out, restart, problems);
  }

  /** One read: the parser that saw the lines, how the scan went, why it started over (or null). */
  record Read<P extends SessionLines>(P lines, JsonlScan.Outcome out, String restart, List<LineProblem> problems) {
    /** A delete of what earlier reads stored when this one started over, the session, then the lines' records. */
    List<TranscriptRecord> records(SourceUnit unit) {
      List<TranscriptRecord> records = new ArrayList<>(lines.records.size() + 2);
      if (restart != null) {
        records.add(new DeleteSessionRecord(unit.sessionId(), restart));
      }
      records.add(lines.session.toRecord(unit, out.fromStart()));
      records.addAll(lines.records);
      return records;
    }

    ParseResult result(List<TranscriptRecord> records) {
      return new ParseResult(records, out.next(), problems, lines.ignored, out.bytesRead(), out.atEnd());
    }
  }
}
