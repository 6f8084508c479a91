package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.util.List;

/** What {@link SessionDetailAssembler#assembleSessionDetail} accepts. */
public sealed interface AssemblyInput permits AssemblyInput.FreshStream, AssemblyInput.PersistedRows {

  /** A provider's complete record stream for one session, from a parse that started at the beginning. */
  record FreshStream(List<TranscriptRecord> records) implements AssemblyInput {
    public FreshStream {
      records = List.copyOf(records);
    }
  }

  /** The session's rows as the store read them back. */
  record PersistedRows(TableRows rows) implements AssemblyInput {}
}
