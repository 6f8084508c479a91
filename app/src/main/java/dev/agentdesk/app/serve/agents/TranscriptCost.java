package dev.agentdesk.app.serve.agents;

import dev.agentdesk.agents.TranscriptLink;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.cost.ModelPrice;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a linked transcript cost, read from the file itself: for a server that does not import
 * ({@code serve --no-import}), or before the import reached the session. Each model response is
 * priced once (the copy of its usage with the largest output count, as the history counts it) at
 * the rates of its day, with the same price table as the history; a response with tokens whose
 * model has no price makes the answer null, never a silent $0. Beside it stands what the agent
 * itself recorded the session cost, where it writes that into the file (Claude Code's exit record, OpenCode's price of each message: the session's recorded cost).
 */
final class TranscriptCost {

  private final Supplier<PriceTable> load;
  /** Loaded on first use; a server reads its price files once. */
  private volatile PriceTable prices;

  TranscriptCost(Supplier<PriceTable> load) {
    this.load = load;
  }

  /**
   * The file's costs: ours null when it has no responses or an unpriced model, the agent's null when
   * it records none; both null for an unreadable file.
   */
  AgentCost of(TranscriptLink link) {
    if (link == null || link.path() == null || !Files.isRegularFile(wholeFile(link.path()))) {
      return AgentCost.NONE;
    }
    Transcripts.FreshParse parse;
    try {
      parse = Transcripts.parse(Provider.parse(link.provider()), link.path());
    } catch (TranscriptException | IllegalArgumentException e) {
      return AgentCost.NONE;
    }
    RecordedCost recorded = parse.detail().session().recordedCost();
    return new AgentCost(usd(parse), recorded == null ? null : Math.round(recorded.totalUsd() * 1e6) / 1e6);
  }

  private Double usd(Transcripts.FreshParse parse) {
    Map<String, MessageRecord> responses = new HashMap<>();
    for (TranscriptRecord r : parse.records()) {
      if (r instanceof MessageRecord m && m.usage() != null && !m.usage().isZero()) {
        String key = m.responseId() != null ? m.responseId() : m.uuid();
        responses.merge(key, m, (a, b) -> b.usage().output() > a.usage().output() ? b : a);
      }
    }
    if (responses.isEmpty()) {
      return null;
    }
    PriceTable table = prices;
    if (table == null) {
      prices = table = load.get();
    }
    double usd = 0;
    for (MessageRecord m : responses.values()) {
      Optional<ModelPrice> price = m.model() == null ? Optional.empty() : table.find(m.model());
      if (price.isEmpty()) {
        return null;
      }
      String day = m.timestamp() != null && m.timestamp().length() >= 10 ? m.timestamp().substring(0, 10) : "";
      TokenUsage u = m.usage();
      usd += price.get().at(day).usd(u);
    }
    return Math.round(usd * 1e6) / 1e6;
  }

  /** The file itself, or for one session of a file that holds several ({@code FILE#SESSION}, as {@code Transcripts.parse} names it) that file. */
  private static java.nio.file.Path wholeFile(java.nio.file.Path p) {
    String name = p.toString();
    int hash = name.lastIndexOf('#');
    return Files.exists(p) || hash <= 0 ? p : java.nio.file.Path.of(name.substring(0, hash));
  }
}
