package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
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
  /**
   * One placed response, or several of one UTC hour from {@code atMs} to {@code lastMs}: its figures
   * as shown and, for the block rows, calculated and recorded.
   */
  private record Entry(long atMs, long lastMs, long responses, TokenUsage usage, double cost, boolean unpriced, String model,
      double calculated, Double share) {}

  private final List<Entry> entries = new ArrayList<>();
  private final Map<UsageBlock, Set<String>> unpricedModels = new IdentityHashMap<>();
  private final Map<UsageBlock, UsageReports.Acc> figures = new IdentityHashMap<>();
  private List<UsageBlock> blocks;

  /**
   * One response, or several of one UTC hour from {@code at} to {@code last}: {@code cost} as the
   * report shows it, {@code calculated} from the price table, {@code share} its part of a recorded
   * cost or null. Several responses of one hour cut as one: a block starts at a whole hour and ends
   * five hours later, and a gap of five hours or more cannot fall inside an hour.
   */
  void add(Instant at, Instant last, long responses, TokenUsage usage, double cost, boolean unpriced, String model, double calculated,
      Double share) {
    entries.add(new Entry(at.toEpochMilli(), last.toEpochMilli(), responses, usage, cost, unpriced, model, calculated, share));
  }

  /** The blocks in time order. */
  List<UsageBlock> blocks() {
    if (blocks != null) {
      return blocks;
    }
    sortByTime();
    blocks = new ArrayList<>();
    long length = UsageBlock.LENGTH.toMillis();
    long hour = ChronoUnit.HOURS.getDuration().toMillis();
    int from = 0;
    long start = 0;
    long last = Long.MIN_VALUE;
    for (int n = 0; n < entries.size(); n++) {
      long at = entries.get(n).atMs();
      if (n > from && (at >= start + length || at >= last + length)) {
        close(start, from, n);
        from = n;
      }
      if (n == from) {
        start = Math.floorDiv(at, hour) * hour;
      }
      last = Math.max(last, entries.get(n).lastMs());
    }
    if (from < entries.size()) {
      close(start, from, entries.size());
    }
    return blocks;
  }

  /**
   * Sorts the entries by time, ties in the order they came. A report by block holds every counted
   * response (hundreds of thousands on a large history), and a comparator sort of the records was
   * most of its time here: time and index are packed into one {@code long} and sorted as numbers.
   */
  private void sortByTime() {
    int n = entries.size();
    if (n < 2) {
      return;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (Entry e : entries) {
      min = Math.min(min, e.atMs());
      max = Math.max(max, e.atMs());
    }
    int indexBits = 32 - Integer.numberOfLeadingZeros(n - 1);
    long span = max - min;
    if (span < 0 || 64 - Long.numberOfLeadingZeros(span) + indexBits > 63) {
      entries.sort(Comparator.comparingLong(Entry::atMs)); // times too far apart to pack
      return;
    }
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (entries.get(i).atMs() - min) << indexBits | i;
    }
    Arrays.sort(keys);
    long mask = (1L << indexBits) - 1;
    Entry[] sorted = new Entry[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = entries.get((int) (keys[i] & mask));
    }
    entries.clear();
    entries.addAll(Arrays.asList(sorted));
  }

  private void close(long startMs, int from, int to) {
    long responses = 0;
    long unpriced = 0;
    long input = 0;
    long output = 0;
    long cacheRead = 0;
    long cacheWrite = 0;
    long cacheWrite1h = 0;
    double cost = 0;
    Set<String> models = new HashSet<>();
    Set<String> noPrice = new TreeSet<>();
    UsageReports.Acc f = new UsageReports.Acc();
    long lastMs = Long.MIN_VALUE;
    for (Entry e : entries.subList(from, to)) {
      lastMs = Math.max(lastMs, e.lastMs());
      input += e.usage().input();
      output += e.usage().output();
      cacheRead += e.usage().cacheRead();
      cacheWrite += e.usage().cacheCreation();
      cacheWrite1h += e.usage().cacheCreation1h();
      responses += e.responses();
      cost += e.cost();
      models.add(e.model());
      if (e.unpriced()) {
        unpriced += e.responses();
        noPrice.add(e.model());
      }
      f.figures(e.calculated(), e.share());
    }
    Instant start = Instant.ofEpochMilli(startMs);
    UsageBlock b = new UsageBlock(start, start.plus(UsageBlock.LENGTH), Instant.ofEpochMilli(entries.get(from).atMs()),
        Instant.ofEpochMilli(lastMs), responses,
        new TokenUsage(input, output, cacheRead, cacheWrite, cacheWrite1h), cost, unpriced,
        List.copyOf(new TreeSet<>(models)));
    blocks.add(b);
    unpricedModels.put(b, noPrice);
    figures.put(b, f);
  }

  List<String> unpricedModels(UsageBlock b) {
    return List.copyOf(unpricedModels.getOrDefault(b, Set.of()));
  }

  /** The calculated and recorded figures of the responses in {@code b}. */
  UsageReports.Acc figures(UsageBlock b) {
    return figures.get(b);
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
