package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.Provider;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Turns one provider's files into canonical records. Adapters are the only code that knows a
 * provider's format; everything downstream sees {@code TranscriptRecord}s.
 */
public sealed interface ProviderAdapter permits ClaudeCodeAdapter, CodexAdapter {

  Provider provider();

  /** The unit for {@code file}, or empty when the file is not one of this provider's transcripts. */
  Optional<SourceUnit> unitFor(Path file);

  /**
   * Reads {@code unit} from {@code cursor} (null: from the start) up to the adapter's batch size.
   * A null cursor or a rewritten file yields a {@code TOTAL} session record; a resumed read a
   * {@code DELTA} one.
   */
  ParseResult parse(SourceUnit unit, Cursor cursor);

  /** The adapter for {@code provider} with the default batch size. */
  static ProviderAdapter of(Provider provider) {
    return provider == Provider.CLAUDE ? new ClaudeCodeAdapter() : new CodexAdapter();
  }
}
