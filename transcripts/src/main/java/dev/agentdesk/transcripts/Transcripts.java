package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.adapter.Cursor;
import dev.agentdesk.transcripts.adapter.ParseResult;
import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import dev.agentdesk.transcripts.adapter.SourceUnit;
import dev.agentdesk.transcripts.assemble.AssemblyInput;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.assemble.SessionDetailAssembler;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The fresh-parse path: a transcript file straight to session detail, no database. */
public final class Transcripts {
  private Transcripts() {}

  /** A complete fresh parse of one file: all its records and the lines skipped. */
  public record FreshParse(SourceUnit unit, List<TranscriptRecord> records, List<LineProblem> problems) {
    public SessionDetail detail() {
      return SessionDetailAssembler.assembleSessionDetail(new AssemblyInput.FreshStream(records));
    }
  }

  /** Parses {@code file} from the start to its end with the adapter of {@code provider}. */
  public static FreshParse parse(Provider provider, Path file) {
    ProviderAdapter adapter = ProviderAdapter.of(provider);
    SourceUnit unit = adapter.unitFor(file).orElseThrow(() -> new TranscriptException(
        TranscriptException.Reason.UNRECOGNISED_SOURCE, file + " is not a " + provider.id() + " transcript (.jsonl)"));
    List<TranscriptRecord> records = new ArrayList<>();
    List<LineProblem> problems = new ArrayList<>();
    Cursor cursor = null;
    while (true) {
      ParseResult r = adapter.parse(unit, cursor);
      records.addAll(r.records());
      problems.addAll(r.problems());
      cursor = r.next();
      if (r.atEnd() || r.bytesRead() == 0) {
        return new FreshParse(unit, records, problems);
      }
    }
  }

  /** Guesses the provider of a file from its first meaningful line. */
  public static Provider detectProvider(Path file) {
    try (var lines = Files.lines(file)) {
      Optional<String> first = lines.filter(l -> !l.isBlank()).limit(5)
          .filter(l -> l.contains("\"session_meta\"") || l.contains("\"response_item\"") || l.contains("\"event_msg\"")
              || l.contains("\"turn_context\""))
          .findFirst();
      return first.isPresent() ? Provider.CODEX : Provider.CLAUDE;
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
