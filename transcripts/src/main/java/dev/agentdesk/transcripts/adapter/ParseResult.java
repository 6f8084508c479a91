package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.util.List;
import java.util.Map;

/**
 * What one {@code parse(unit, cursor)} call produced.
 *
 * @param records canonical records in stream order; the first is a {@code DeleteSessionRecord}
 *     when the file was rewritten, and a {@code SessionRecord} is always present
 * @param next the cursor to resume from
 * @param problems lines that were skipped, with the reason
 * @param ignored lines deliberately not turned into records, counted by kind
 * @param bytesRead bytes consumed by this call
 * @param atEnd true when the read reached the end of the file (only an incomplete last line, if
 *     any, is left)
 */
public record ParseResult(
    List<TranscriptRecord> records,
    Cursor next,
    List<LineProblem> problems,
    Map<String, Long> ignored,
    long bytesRead,
    boolean atEnd) {}
