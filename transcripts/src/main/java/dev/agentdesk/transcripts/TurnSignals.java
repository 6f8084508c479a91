package dev.agentdesk.transcripts;

import java.util.function.Consumer;

/**
 * One provider's live reading of one transcript: entries in, {@link TurnSignal}s out. Stateful
 * (a format may need earlier lines to read a later one), so one instance per file, from its
 * first line; not thread-safe. From {@link LiveTranscripts#signals(Provider)}.
 */
public interface TurnSignals {
  /**
   * Reads one line of the transcript and hands its signals to {@code out}, in order.
   *
   * @return false when the line is not one of the format's entries (not a JSON object): it is not counted
   */
  boolean read(String line, Consumer<TurnSignal> out);
}
