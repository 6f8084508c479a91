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
 * A session that went on in a newer file (an agent that restarted itself) costs what all its files do.
 */
final class TranscriptCost {

  private final Supplier<PriceTable> load;
  /** Loaded on first use; a server reads its price files once. */
  private volatile PriceTable prices;

  TranscriptCost(Supplier<PriceTable> load) {
    this.load = load;
  }

  /**
   * The costs of the link's files (every one, for a session that went on in a newer file:
   * {@link TranscriptLink#parts}): ours null when none has responses or one has an unpriced model,
   * the agent's null when none records one; both null when no file is readable.
   */
  AgentCost of(TranscriptLink link) {
    if (link == null || link.path() == null) {
      return AgentCost.NONE;
    }
    Provider provider;
    try {
      provider = Provider.parse(link.provider());
    } catch (IllegalArgumentException e) {
      return AgentCost.NONE;
    }
    boolean read = false;
    boolean responses = false;
    boolean unpriced = false;
    double usd = 0;
    Double recorded = null;
    for (TranscriptLink.Part part : link.parts()) {
      FileCost f = fileCost(provider, part.path());
      if (f == null) {
        continue;
      }
      read = true;
      responses |= f.priced().responses();
      unpriced |= f.priced().unpriced();
      usd += f.priced().usd();
      if (f.recordedUsd() != null) {
        recorded = (recorded == null ? 0 : recorded) + f.recordedUsd();
      }
    }
    if (!read) {
      return AgentCost.NONE;
    }
    return new AgentCost(!responses || unpriced ? null : round(usd), recorded == null ? null : round(recorded));
  }

  /** One file's price and the cost its agent recorded, as of its {@link Stamp}. */
  private record FileCost(Stamp stamp, Priced priced, Double recordedUsd) {}

  /**
   * What tells a changed file from an unchanged one: its size and modification time, and those of
   * its SQLite write-ahead log ({@code FILE-wal}) — a database an agent holds open (OpenCode's)
   * takes new rows into the log and leaves the main file as it was until a checkpoint.
   */
  private record Stamp(long size, long modifiedMs, long walSize, long walModifiedMs) {
    static Stamp of(java.nio.file.Path file) throws java.io.IOException {
      java.nio.file.Path wal = file.resolveSibling(file.getFileName() + "-wal");
      boolean logged = Files.isRegularFile(wal);
      return new Stamp(Files.size(file), Files.getLastModifiedTime(file).toMillis(),
          logged ? Files.size(wal) : -1, logged ? Files.getLastModifiedTime(wal).toMillis() : -1);
    }
  }

  /**
   * Files already priced: a file is parsed again only once it changed. A session's earlier files
   * (an agent that restarted itself) never change, and the current one is read again only when it grew.
   */
  private final Map<java.nio.file.Path, FileCost> priced = new java.util.concurrent.ConcurrentHashMap<>();
  private static final int PRICED_FILES = 512;

  /** The file's costs, from {@link #priced} while it is unchanged; null when it cannot be read. */
  private FileCost fileCost(Provider provider, java.nio.file.Path path) {
    java.nio.file.Path whole = wholeFile(path);
    if (!Files.isRegularFile(whole)) {
      return null;
    }
    Stamp stamp;
    try {
      stamp = Stamp.of(whole);
    } catch (java.io.IOException e) {
      return null;
    }
    FileCost known = priced.get(path);
    if (known != null && known.stamp().equals(stamp)) {
      return known;
    }
    Transcripts.FreshParse parse;
    try {
      parse = Transcripts.parse(provider, path);
    } catch (TranscriptException | IllegalArgumentException e) {
      return null;
    }
    RecordedCost r = parse.detail().session().recordedCost();
    FileCost fresh = new FileCost(stamp, usd(parse), r == null ? null : r.totalUsd());
    if (priced.size() >= PRICED_FILES) {
      priced.clear(); // a long-running server does not keep every file it ever priced
    }
    priced.put(path, fresh);
    return fresh;
  }

  /** One file's price: whether it has responses, whether one has a model without a price, and the sum of the rest. */
  private record Priced(boolean responses, boolean unpriced, double usd) {}

  private Priced usd(Transcripts.FreshParse parse) {
    Map<String, MessageRecord> responses = new HashMap<>();
    for (TranscriptRecord r : parse.records()) {
      if (r instanceof MessageRecord m && m.usage() != null && !m.usage().isZero()) {
        String key = m.responseId() != null ? m.responseId() : m.uuid();
        responses.merge(key, m, (a, b) -> b.usage().output() > a.usage().output() ? b : a);
      }
    }
    if (responses.isEmpty()) {
      return new Priced(false, false, 0);
    }
    PriceTable table = prices;
    if (table == null) {
      prices = table = load.get();
    }
    double usd = 0;
    for (MessageRecord m : responses.values()) {
      Optional<ModelPrice> price = m.model() == null ? Optional.empty() : table.find(m.model());
      if (price.isEmpty()) {
        return new Priced(true, true, 0);
      }
      String day = m.timestamp() != null && m.timestamp().length() >= 10 ? m.timestamp().substring(0, 10) : "";
      TokenUsage u = m.usage();
      usd += price.get().at(day).usd(u);
    }
    return new Priced(true, false, usd);
  }

  private static double round(double usd) {
    return Math.round(usd * 1e6) / 1e6;
  }

  /** The file itself, or for one session of a file that holds several ({@code FILE#SESSION}, as {@code Transcripts.parse} names it) that file. */
  private static java.nio.file.Path wholeFile(java.nio.file.Path p) {
    String name = p.toString();
    int hash = name.lastIndexOf('#');
    return Files.exists(p) || hash <= 0 ? p : java.nio.file.Path.of(name.substring(0, hash));
  }
}
