package dev.agentdesk.transcripts;

import java.util.List;
import java.util.Map;

/**
 * What an import did.
 *
 * @param filesSeen transcript files found
 * @param filesChanged files that had new bytes (or were rewritten)
 * @param bytesRead bytes parsed
 * @param records records stored
 * @param problems skipped lines and skipped files
 * @param ignored lines deliberately not stored, by kind
 */
public record ImportReport(int filesSeen, int filesChanged, long bytesRead, long records, List<LineProblem> problems,
    Map<String, Long> ignored) {
  public ImportReport {
    problems = List.copyOf(problems);
    ignored = Map.copyOf(ignored);
  }
}
