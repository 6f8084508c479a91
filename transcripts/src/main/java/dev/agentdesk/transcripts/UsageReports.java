package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.cost.ModelPrice;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.cost.Rates;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Prices the stored usage aggregates. Each aggregate row is one (session, day, model, context
 * bucket), so a row is priced at its day's prices and at its bucket's tier: exact as long as every
 * tier of the table starts at a bucket bound. A table with other tier starts (a user's override) is
 * applied to every counted response instead, which is exact and slower. Reports by block and by
 * another zone's days read the responses summed per UTC hour, with each hour's first and last time
 * (ADR 0041); where an hour holds two local days (a zone with a half-hour offset), each response.
 *
 * <p>The query's filters keep or drop responses before they are summed, so a total is always the
 * sum of its rows, whatever the grouping.
 */
final class UsageReports {
  private UsageReports() {}

  /** One group being summed. */
  static final class Acc {
    long responses;
    long input;
    long output;
    long cacheRead;
    long cacheWrite;
    long cacheWrite1h;
    double cost;
    double calculated;
    double recorded;
    double recordedCalculated;
    boolean hasRecorded;
    long unpriced;
    final Set<String> unpricedModels = new TreeSet<>();

    void add(long n, TokenUsage u) {
      responses += n;
      input += u.input();
      output += u.output();
      cacheRead += u.cacheRead();
      cacheWrite += u.cacheCreation();
      cacheWrite1h += u.cacheCreation1h();
    }

    void add(Acc o) {
      responses += o.responses;
      input += o.input;
      output += o.output;
      cacheRead += o.cacheRead;
      cacheWrite += o.cacheWrite;
      cacheWrite1h += o.cacheWrite1h;
      cost += o.cost;
      addFigures(o);
      unpriced += o.unpriced;
      unpricedModels.addAll(o.unpricedModels);
    }

    /** The calculated and recorded figures of {@code o} (its cost, tokens and counts stay). */
    void addFigures(Acc o) {
      calculated += o.calculated;
      recorded += o.recorded;
      recordedCalculated += o.recordedCalculated;
      hasRecorded |= o.hasRecorded;
    }

    void figures(double calc, Double share) {
      calculated += calc;
      if (share != null) {
        hasRecorded = true;
        recorded += share;
        recordedCalculated += calc;
      }
    }

    UsageRow row(String key) {
      return new UsageRow(key, responses, new TokenUsage(input, output, cacheRead, cacheWrite, cacheWrite1h), cost,
          unpriced, List.copyOf(unpricedModels), calculated, hasRecorded ? recorded : null, recordedCalculated);
    }
  }

  private static final class Builder {
    final UsageQuery q;
    final PriceTable prices;
    final Map<String, Acc> groups = new TreeMap<>();
    final Map<String, Map<String, Acc>> parts = new HashMap<>();
    final Map<String, Optional<ModelPrice>> models = new HashMap<>();
    final Set<String> rejectedSessions = new TreeSet<>();
    final UsageBlocks blocks = new UsageBlocks();
    /** Sessions whose agent recorded their cost, and the weights that spread it over their responses. */
    final Map<String, RecordedCost> recordedCosts;
    final Map<String, Weights> weights = new HashMap<>();
    /** Kept responses of sessions with a recorded cost, placed once every weight is known. */
    final List<Item> deferred = new ArrayList<>();
    long rejected;
    long untimed;
    String newestDay;

    /** Whether a filter or the grouping needs each response's local day (a zone conversion per response). */
    final boolean dated;

    Builder(UsageQuery q, PriceTable prices, Map<String, RecordedCost> recordedCosts) {
      this.q = q;
      this.prices = prices;
      this.recordedCosts = recordedCosts;
      this.dated = q.since() != null || q.until() != null || q.by() == UsageGrouping.DAY
          || q.by() == UsageGrouping.WEEK || q.by() == UsageGrouping.MONTH;
    }

    /**
     * One response or aggregate. {@code day} is its UTC day (prices are by UTC day); {@code at} its
     * time when known (then days, weeks and months are in the query's zone), else null; {@code last}
     * the last response's time of an aggregate of one hour ({@code at} the first's).
     */
    void add(String sessionId, String source, String project, String uuid, String day, Instant at, Instant last,
        String model,
        long responses, TokenUsage u, long context) {
      boolean kept = !(q.provider() != null && !q.provider().id().equals(source)
          || q.project() != null && !q.project().equals(project)
          || q.model() != null && !q.model().equals(model));
      LocalDate local = !dated ? null : at != null ? at.atZone(q.zone()).toLocalDate() : utcDay(day);
      if (kept && (q.since() != null || q.until() != null) && (local == null
          || q.since() != null && local.isBefore(q.since()) || q.until() != null && local.isAfter(q.until()))) {
        kept = false;
      }
      // A session's recorded cost is spread over all its responses, kept or not: they are weighed too.
      boolean withRecorded = recordedCosts.containsKey(sessionId);
      if (!kept && !withRecorded) {
        return;
      }
      if (context < 0) {
        if (kept) {
          rejected += responses;
          rejectedSessions.add(sessionId);
        }
        return;
      }
      String modelKey = model.isEmpty() ? "unknown" : model;
      Optional<ModelPrice> price = model.isEmpty() ? Optional.empty() : models.computeIfAbsent(model, prices::find);
      double cost = 0;
      boolean unpriced = false;
      if (price.isPresent()) {
        Rates r = price.get().at(day);
        cost = r.usd(u, context);
      } else if (!u.isZero()) {
        unpriced = true;
      }
      long tokens = u.input() + u.output() + u.cacheRead() + u.cacheCreation();
      if (withRecorded) {
        weights.computeIfAbsent(sessionId, k -> new Weights()).add(model, cost, tokens, responses);
      }
      if (!kept) {
        return;
      }
      if (!day.isEmpty() && (newestDay == null || day.compareTo(newestDay) > 0)) {
        newestDay = day;
      }
      Item item = new Item(sessionId, source, project, uuid, local, at, last, model, modelKey, responses, u, cost, unpriced,
          tokens);
      if (withRecorded) {
        deferred.add(item);
      } else {
        place(item, null);
      }
    }

    /** The deferred responses, each with its share of its session's recorded cost. */
    void placeDeferred() {
      for (Item i : deferred) {
        place(i, weights.get(i.sessionId()).share(recordedCosts.get(i.sessionId()), i));
      }
      deferred.clear();
    }

    /** Sums one kept response (or aggregate) into its group; {@code share} is its part of a recorded cost, or null. */
    private void place(Item i, Double share) {
      double shown = switch (q.mode()) {
        case CALCULATE -> i.cost();
        case AUTO -> share != null ? share : i.cost();
        case DISPLAY -> share != null ? share : 0;
      };
      // Without a price the cost is missing only where the calculated figure is the one shown.
      boolean unpriced = i.unpriced() && (q.mode() == CostMode.CALCULATE || q.mode() == CostMode.AUTO && share == null);
      if (q.by() == UsageGrouping.BLOCK) {
        if (i.at() == null) {
          untimed += i.responses();
        } else {
          blocks.add(i.at(), i.last(), i.responses(), i.u(), shown, unpriced, i.modelKey(), i.cost(), share);
        }
        return;
      }
      LocalDate local = i.local();
      String key = switch (q.by()) {
        case DAY -> local == null ? "unknown" : local.toString();
        case WEEK -> local == null ? "unknown" : isoWeek(local);
        case MONTH -> local == null ? "unknown" : local.toString().substring(0, 7);
        case SESSION -> i.sessionId();
        case MODEL -> i.modelKey();
        case PROVIDER -> i.source();
        case PROJECT -> i.project() == null || i.project().isBlank() ? "unknown" : i.project();
        case RESPONSE -> i.sessionId() + " " + i.uuid();
        case BLOCK -> throw new IllegalStateException();
      };
      Acc g = groups.computeIfAbsent(key, k -> new Acc());
      add(g, i.responses(), i.u(), shown, unpriced, i.modelKey());
      g.figures(i.cost(), share);
      if (q.breakdown()) {
        Acc part = parts.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(i.modelKey(), k -> new Acc());
        add(part, i.responses(), i.u(), shown, unpriced, i.modelKey());
        part.figures(i.cost(), share);
      }
    }

    private static void add(Acc a, long responses, TokenUsage u, double cost, boolean unpriced, String model) {
      a.add(responses, u);
      a.cost += cost;
      if (unpriced) {
        a.unpriced += responses;
        a.unpricedModels.add(model);
      }
    }

    UsageReport report(Map<String, Double> recorded) {
      List<UsageRow> rows = new ArrayList<>(groups.size());
      Acc total = new Acc();
      Map<String, List<UsageRow>> breakdown = new HashMap<>();
      List<UsageBlock> blockList = new ArrayList<>();
      if (q.by() == UsageGrouping.BLOCK) {
        blockList.addAll(blocks.blocks());
        for (UsageBlock b : blockList) {
          Acc f = blocks.figures(b);
          rows.add(new UsageRow(b.start().atZone(q.zone()).toOffsetDateTime().toString(), b.responses(), b.usage(),
              b.costUsd(), b.unpricedResponses(), blocks.unpricedModels(b), f.calculated,
              f.hasRecorded ? f.recorded : null, f.recordedCalculated));
          total.addFigures(f);
        }
        blocks.totalInto(total);
      } else {
        groups.forEach((k, a) -> {
          rows.add(a.row(k));
          total.add(a);
        });
        parts.forEach((k, byModel) -> {
          List<UsageRow> list = new ArrayList<>();
          byModel.forEach((m, a) -> list.add(a.row(m)));
          breakdown.put(k, list);
        });
      }
      if (q.descending()) {
        Collections.reverse(rows);
        Collections.reverse(blockList);
      }
      List<String> warnings = new ArrayList<>();
      if (!total.unpricedModels.isEmpty()) {
        warnings.add("no price for " + String.join(", ", total.unpricedModels) + " (" + total.unpriced
            + " responses): their tokens are counted, their cost is not in the totals; give their prices in "
            + "price-overrides.json (see 'agentdesk prices --help')");
      }
      if (rejected > 0) {
        List<String> some = new ArrayList<>(rejectedSessions).subList(0, Math.min(3, rejectedSessions.size()));
        warnings.add(rejected + " responses with negative or absurd token counts were left out (session"
            + (rejectedSessions.size() > 1 ? "s " : " ") + String.join(", ", some)
            + (rejectedSessions.size() > 3 ? " and " + (rejectedSessions.size() - 3) + " more" : "") + ")");
      }
      if (untimed > 0) {
        warnings.add(untimed + " responses without a timestamp are in no block");
      }
      if (prices.published() != null && newestDay != null && newestDay.compareTo(prices.published()) > 0) {
        warnings.add("the price table (" + prices.source() + " " + prices.version() + ", published "
            + prices.published() + ") is older than the newest usage (" + newestDay + "): prices changed since are"
            + " not known; refresh it with 'agentdesk prices update --from FILE'");
      }
      return new UsageReport(q.by(), rows, total.row("total"), prices.source(), prices.version(), prices.published(),
          rejected, newestDay, warnings, recorded, breakdown, blockList, q.mode());
    }
  }

  /** A kept response (or aggregate row) waiting to be placed. */
  record Item(String sessionId, String source, String project, String uuid, LocalDate local, Instant at, Instant last,
      String model,
      String modelKey, long responses, TokenUsage u, double cost, boolean unpriced, long tokens) {}

  /**
   * How one session's recorded cost is spread over its responses. The agents record a session's cost
   * (and, Claude Code and OpenCode, each model's part), not each response's: a model's part goes to
   * that model's responses and the rest (a model with no response in the transcript, such as Claude
   * Code's title calls, or a total without parts) to all the session's responses, each in proportion
   * to its calculated cost; by tokens where nothing could be priced, by count where there are no
   * tokens. Every response of the session is weighed, kept by the query's filters or not, so a
   * filtered report holds the filtered responses' share.
   */
  static final class Weights {
    final Map<String, double[]> byModel = new HashMap<>();
    final double[] all = new double[3];

    void add(String model, double cost, long tokens, long responses) {
      double[] m = byModel.computeIfAbsent(model, k -> new double[3]);
      m[0] += cost;
      m[1] += tokens;
      m[2] += responses;
      all[0] += cost;
      all[1] += tokens;
      all[2] += responses;
    }

    double share(RecordedCost rc, Item i) {
      double rest = rc.totalUsd();
      double share = 0;
      for (RecordedCost.ModelCost m : rc.models()) {
        double[] w = byModel.get(m.model());
        if (m.costUsd() != null && w != null) {
          rest -= m.costUsd();
          if (m.model().equals(i.model())) {
            share += m.costUsd() * fraction(i, w);
          }
        }
      }
      return share + rest * fraction(i, all);
    }

    private static double fraction(Item i, double[] w) {
      return w[0] > 0 ? i.cost() / w[0] : w[1] > 0 ? i.tokens() / w[1] : w[2] > 0 ? i.responses() / w[2] : 0;
    }
  }

  /** A context size inside an aggregate's bucket (-1: the rejected bucket), which prices it at its tier. */
  private static long context(long[] bounds, int bucket) {
    return bucket < 0 ? -1 : bucket == 0 ? 0 : bounds[bucket - 1] + 1;
  }

  private static LocalDate utcDay(String day) {
    if (day == null || day.length() < 10) {
      return null;
    }
    // YYYY-MM-DD read by hand: the first LocalDate.parse of a process builds the ISO formatter (~8 ms)
    if (day.charAt(4) == '-' && day.charAt(7) == '-') {
      int y = digits(day, 0, 4);
      int m = digits(day, 5, 7);
      int d = digits(day, 8, 10);
      if (y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        try {
          return LocalDate.of(y, m, d);
        } catch (java.time.DateTimeException e) {
          return null; // February 30th: what LocalDate.parse refuses too
        }
      }
    }
    try {
      return LocalDate.parse(day.substring(0, 10));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * "2026-W09": the ISO week-based year and week of {@code day}, concatenated by hand (String.format
   * per row was ~20 ms of a short report's start, in the interpreter).
   */
  static String isoWeek(LocalDate day) {
    int week = day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
    return day.get(IsoFields.WEEK_BASED_YEAR) + (week < 10 ? "-W0" : "-W") + week;
  }

  /** The decimal number in {@code s[from, to)}, or -1 when a character is not an ASCII digit. */
  private static int digits(String s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  static UsageReport build(TranscriptStore store, UsageQuery q, PriceTable prices, String sessionId) {
    return build(store, q, prices, sessionId, false);
  }

  /**
   * As {@link #build(TranscriptStore, UsageQuery, PriceTable, String)}; {@code perResponse} reads
   * every counted response alone, the exact read that the aggregate reads are tested against.
   */
  static UsageReport build(TranscriptStore store, UsageQuery q, PriceTable prices, String sessionId,
      boolean perResponse) {
    Builder b = new Builder(q, prices, store.recordedCostDetails(sessionId));
    long[] bounds = TranscriptStore.contextBounds();
    Set<Long> boundSet = new TreeSet<>();
    for (long x : bounds) {
      boundSet.add(x);
    }
    boolean aggregates = !perResponse && q.by() != UsageGrouping.RESPONSE && boundSet.containsAll(prices.tierStarts());
    boolean timed = q.by() == UsageGrouping.BLOCK || !q.utcDays();
    // --since/--until narrow the read in SQL too (the builder filters exactly on local days): the
    // stored day is the timestamp's own date, within two days of any zone's.
    String fromDay = q.since() == null ? null : q.since().minusDays(2).toString();
    String toDay = q.until() == null ? null : q.until().plusDays(2).toString();
    boolean read = false;
    if (aggregates && timed) {
      List<TranscriptStore.UsageHour> hours = new ArrayList<>();
      store.forEachUsageHour(sessionId, fromDay, toDay, hours::add);
      // An hour has one local day in every zone of whole-hour offsets; elsewhere (India, Nepal …)
      // an hour may hold two, and then each response is read for its own day.
      if (!b.dated || hours.stream().allMatch(h -> h.first() == null
          || h.first().atZone(q.zone()).toLocalDate().equals(h.last().atZone(q.zone()).toLocalDate()))) {
        for (TranscriptStore.UsageHour h : hours) {
          b.add(h.sessionId(), h.source(), h.project(), null, h.day(), h.first(), h.last(), h.model(), h.responses(),
              h.usage(), context(bounds, h.bucket()));
        }
        read = true;
      }
    }
    if (!read && (!aggregates || timed)) {
      store.forEachUsageResponse(sessionId, timed, fromDay, toDay, r -> b.add(r.sessionId(), r.source(), r.project(),
          r.uuid(), r.day(), r.at(), r.at(), r.model(), 1, r.usage(), r.usage().plausible()
              ? r.usage().input() + r.usage().cacheRead() + r.usage().cacheCreation() : -1));
    } else if (!read) {
      store.forEachUsageTotal(sessionId, fromDay, toDay, t -> b.add(t.sessionId(), t.source(), t.project(), null,
          t.day(), null, null, t.model(), t.responses(), t.usage(), context(bounds, t.bucket())));
    }
    b.placeDeferred();
    Map<String, Double> recorded = new HashMap<>();
    if (q.by() == UsageGrouping.SESSION) {
      store.recordedCosts(sessionId).forEach((id, usd) -> {
        if (b.groups.containsKey(id)) {
          recorded.put(id, usd);
        }
      });
    }
    return b.report(recorded);
  }
}
