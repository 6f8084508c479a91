package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Cuts responses into five-hour blocks (the rule is on {@link UsageBlock}). Responses arrive in any
 * order (session by session); they are sorted by time before cutting.
 */
final class UsageBlocks {
  private record Entry(Instant at, long responses, TokenUsage usage, double cost, boolean unpriced, String model) {}

  private final List<Entry> entries = new ArrayList<>();
  private final Map<UsageBlock, Set<String>> unpricedModels = new IdentityHashMap<>();
  private List<UsageBlock> blocks;

  void add(Instant at, long responses, TokenUsage usage, double cost, boolean unpriced, String model) {
    entries.add(new Entry(at, responses, usage, cost, unpriced, model));
  }

  /** The blocks in time order. */
  List<UsageBlock> blocks() {
    if (blocks != null) {
      return blocks;
    }
    entries.sort(Comparator.comparing(Entry::at));
    blocks = new ArrayList<>();
    List<Entry> open = new ArrayList<>();
    Instant start = null;
    Instant last = null;
    for (Entry e : entries) {
      if (start != null && (!e.at().isBefore(start.plus(UsageBlock.LENGTH))
          || !e.at().isBefore(last.plus(UsageBlock.LENGTH)))) {
        close(start, open);
        open.clear();
        start = null;
      }
      if (start == null) {
        start = e.at().truncatedTo(ChronoUnit.HOURS);
      }
      open.add(e);
      last = e.at();
    }
    if (start != null) {
      close(start, open);
    }
    return blocks;
  }

  private void close(Instant start, List<Entry> in) {
    TokenUsage u = TokenUsage.ZERO;
    long responses = 0;
    long unpriced = 0;
    double cost = 0;
    Set<String> models = new TreeSet<>();
    Set<String> noPrice = new TreeSet<>();
    for (Entry e : in) {
      u = u.plus(e.usage());
      responses += e.responses();
      cost += e.cost();
      models.add(e.model());
      if (e.unpriced()) {
        unpriced += e.responses();
        noPrice.add(e.model());
      }
    }
    UsageBlock b = new UsageBlock(start, start.plus(UsageBlock.LENGTH), in.get(0).at(), in.get(in.size() - 1).at(),
        responses, u, cost, unpriced, List.copyOf(models));
    blocks.add(b);
    unpricedModels.put(b, noPrice);
  }

  List<String> unpricedModels(UsageBlock b) {
    return List.copyOf(unpricedModels.getOrDefault(b, Set.of()));
  }

  /** Adds every block into {@code total}. */
  void totalInto(UsageReports.Acc total) {
    for (UsageBlock b : blocks()) {
      total.add(b.responses(), b.usage());
      total.cost += b.costUsd();
      total.unpriced += b.unpricedResponses();
      total.unpricedModels.addAll(unpricedModels(b));
    }
  }
}
