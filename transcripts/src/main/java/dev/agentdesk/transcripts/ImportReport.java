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

  /** This import followed by {@code more}: counts added, problems in order. */
  public ImportReport plus(ImportReport more) {
    List<LineProblem> all = new java.util.ArrayList<>(problems);
    all.addAll(more.problems);
    Map<String, Long> kinds = new java.util.TreeMap<>(ignored);
    more.ignored.forEach((k, v) -> kinds.merge(k, v, Long::sum));
    return new ImportReport(filesSeen + more.filesSeen, filesChanged + more.filesChanged, bytesRead + more.bytesRead,
        records + more.records, all, kinds);
  }
}
