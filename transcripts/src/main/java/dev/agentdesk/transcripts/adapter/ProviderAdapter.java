package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns one provider's files into canonical records. Adapters are the only code that knows a
 * provider's format; everything downstream sees {@code TranscriptRecord}s.
 */
public sealed interface ProviderAdapter permits ClaudeCodeAdapter, CodexAdapter, GeminiAdapter, CopilotAdapter, CursorAdapter,
    OpenCodeAdapter, PiAdapter, AiderAdapter {

  Provider provider();

  /** The unit for {@code file}, or empty when the file is not one of this provider's transcripts. */
  Optional<SourceUnit> unitFor(Path file);

  /**
   * The folders this provider writes transcripts to by default (current and older releases), for
   * the environment {@code env} and the home folder {@code home}; they need not exist.
   */
  List<Path> defaultRoots(Map<String, String> env, Path home);

  /**
   * Whether {@code file} (its name, and {@code head}: its first non-blank lines, empty for a folder or
   * a binary file) looks like this provider's, for {@code history parse} without {@code --provider}.
   */
  default boolean recognises(Path file, List<String> head) {
    return false;
  }

  /**
   * How many folder levels below a root {@link #discover} looks (and a watcher needs to watch): all
   * of them for a provider's own folder; fewer for one searched among other files.
   */
  default int searchDepth() {
    return Integer.MAX_VALUE;
  }

  /**
   * This provider's transcripts that live inside a project rather than in a folder of its own, for the
   * working folder {@code folder} of some session (any provider's); empty for most providers.
   */
  default List<Path> projectFiles(Path folder) {
    return List.of();
  }

  /**
   * Every unit under {@code root} (a folder, or one transcript file), in a stable order.
   *
   * @throws IOException when the folder cannot be listed
   */
  default List<SourceUnit> discover(Path root) throws IOException {
    if (Files.isRegularFile(root)) {
      return unitFor(root).map(List::of).orElse(List.of());
    }
    List<SourceUnit> units = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
        unitFor(f).ifPresent(units::add);
      }
    }
    return units;
  }

  /**
   * Reads {@code unit} from {@code cursor} (null: from the start) up to the adapter's batch size.
   * A null cursor or a rewritten file yields a {@code TOTAL} session record; a resumed read a
   * {@code DELTA} one.
   */
  ParseResult parse(SourceUnit unit, Cursor cursor);

  /**
   * A fresh reader of this provider's live turn signals for one transcript. The default reads JSON
   * lines and signals nothing: a format that records no turn, or lines that are not the session's
   * own (see docs/session-detail.md, "Turn signals").
   */
  default TurnSignals turnSignals() {
    return LiveLines.silent();
  }

  /**
   * The transcript a just-launched agent writes, searched under {@code roots} (this provider's
   * default folders); empty when none is there yet or the provider's files cannot be told apart
   * by launch.
   */
  default Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return Optional.empty();
  }

  /**
   * A number that changes whenever the located transcript {@code file} may have new content, for a
   * watcher that reads again only then: its size by default (transcripts are appended to; for one
   * session of a file, {@code FILE#SESSION_ID}, the file's).
   *
   * @throws IOException when it cannot be read (gone, or not there yet)
   */
  default long liveVersion(Path file) throws IOException {
    String name = file.toString();
    int hash = name.lastIndexOf('#');
    if (!Files.exists(file) && hash > 0) { // FILE#SESSION_ID: one session of a file that holds several
      return Files.size(Path.of(name.substring(0, hash)));
    }
    return Files.size(file);
  }

  /**
   * A newer transcript the same launch writes instead of {@code current} (see
   * {@link LiveTranscripts#successor}); empty by default: one file per session.
   */
  default Optional<LiveTranscripts.Located> successor(LiveTranscripts.Launch launch, LiveTranscripts.Located current,
      List<Path> roots) {
    return Optional.empty();
  }

  /** The adapter for {@code provider} with the default batch size. */
  static ProviderAdapter of(Provider provider) {
    return switch (provider) {
      case CLAUDE -> new ClaudeCodeAdapter();
      case CODEX -> new CodexAdapter();
      case GEMINI -> new GeminiAdapter();
      case COPILOT -> new CopilotAdapter();
      case CURSOR -> new CursorAdapter();
      case OPENCODE -> new OpenCodeAdapter();
      case PI -> new PiAdapter();
      case AIDER -> new AiderAdapter();
    };
  }
}
