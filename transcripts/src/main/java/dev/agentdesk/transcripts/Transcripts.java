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

  /**
   * Parses {@code file} from the start to its end with the adapter of {@code provider}. A file that
   * holds several sessions (OpenCode's {@code opencode.db}) is named {@code FILE#SESSION_ID}; a
   * session file of a folder layout (OpenCode's {@code storage/session/…/ID.json}) brings its
   * messages and parts along.
   */
  public static FreshParse parse(Provider provider, Path file) {
    ProviderAdapter adapter = ProviderAdapter.of(provider);
    SourceUnit unit = unit(adapter, file);
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

  private static SourceUnit unit(ProviderAdapter adapter, Path file) {
    String name = file.toString();
    int hash = name.lastIndexOf('#');
    Path whole = file;
    String part = null;
    if (!Files.exists(file) && hash > 0 && Files.isRegularFile(Path.of(name.substring(0, hash)))) {
      whole = Path.of(name.substring(0, hash));
      part = name.substring(hash + 1);
    }
    Optional<SourceUnit> direct = part == null ? adapter.unitFor(whole) : Optional.empty();
    if (direct.isPresent()) {
      return direct.get();
    }
    List<SourceUnit> units;
    try {
      units = Files.isRegularFile(whole) ? adapter.discover(whole) : List.of();
    } catch (java.io.IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read " + whole + ": " + e.getMessage(), e);
    }
    String wanted = part;
    List<SourceUnit> matching = units.stream().filter(u -> wanted == null || wanted.equals(u.sessionId())).toList();
    if (matching.size() == 1) {
      return matching.get(0);
    }
    if (matching.size() > 1) {
      throw new TranscriptException(TranscriptException.Reason.UNRECOGNISED_SOURCE, whole + " holds "
          + matching.size() + " sessions; name one as " + whole + "#SESSION_ID (for example " + whole + "#"
          + matching.get(0).sessionId() + ")");
    }
    throw new TranscriptException(TranscriptException.Reason.UNRECOGNISED_SOURCE, part != null
        ? whole + " has no " + adapter.provider().id() + " session " + part
        : file + " is not a " + adapter.provider().id() + " transcript");
  }

  /**
   * Guesses the provider of a file from its name and first lines, asking each adapter in turn
   * (Claude Code when none claims it; use {@code --provider} when it guesses wrong).
   */
  public static Provider detectProvider(Path file) {
    List<String> head = List.of();
    if (Files.isRegularFile(file)) {
      try (var lines = Files.lines(file)) {
        head = lines.filter(l -> !l.isBlank()).limit(5).toList();
      } catch (java.io.IOException | java.io.UncheckedIOException e) {
        if (!(e.getCause() instanceof java.nio.charset.MalformedInputException)
            && !(e instanceof java.io.UncheckedIOException u && u.getCause() instanceof java.nio.charset.CharacterCodingException)) {
          throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
              "cannot read " + file + ": " + e.getMessage(), e);
        }
      }
    }
    for (Provider p : DETECTION_ORDER) {
      if (ProviderAdapter.of(p).recognises(file, head)) {
        return p;
      }
    }
    return Provider.CLAUDE;
  }

  /** Most distinctive formats first; Claude Code, the most general JSONL, is the fallback. */
  private static final List<Provider> DETECTION_ORDER = List.of(Provider.AIDER, Provider.CODEX, Provider.OPENCODE, Provider.GEMINI,
      Provider.COPILOT, Provider.PI, Provider.CURSOR);
}
