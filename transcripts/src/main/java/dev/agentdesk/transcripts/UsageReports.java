package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.cost.ModelPrice;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.cost.Rates;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
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
 * applied to every counted response instead, which is exact and slower. So are reports whose days
 * are not UTC days (another time zone) and reports by block: they read each response's timestamp.
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
      unpriced += o.unpriced;
      unpricedModels.addAll(o.unpricedModels);
    }

    UsageRow row(String key) {
      return new UsageRow(key, responses, new TokenUsage(input, output, cacheRead, cacheWrite, cacheWrite1h), cost,
          unpriced, List.copyOf(unpricedModels));
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
    long rejected;
    long untimed;
    String newestDay;

    Builder(UsageQuery q, PriceTable prices) {
      this.q = q;
      this.prices = prices;
    }

    /**
     * One response or aggregate. {@code day} is its UTC day (prices are by UTC day); {@code at} its
     * time when known (then days, weeks and months are in the query's zone), else null.
     */
    void add(String sessionId, String source, String project, String uuid, String day, Instant at, String model,
        long responses, TokenUsage u, long context) {
      if (q.provider() != null && !q.provider().id().equals(source)
          || q.project() != null && !q.project().equals(project)
          || q.model() != null && !q.model().equals(model)) {
        return;
      }
      LocalDate local = at != null ? at.atZone(q.zone()).toLocalDate() : utcDay(day);
      if ((q.since() != null || q.until() != null) && (local == null
          || q.since() != null && local.isBefore(q.since()) || q.until() != null && local.isAfter(q.until()))) {
        return;
      }
      if (context < 0) {
        rejected += responses;
        rejectedSessions.add(sessionId);
        return;
      }
      if (!day.isEmpty() && (newestDay == null || day.compareTo(newestDay) > 0)) {
        newestDay = day;
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
      if (q.by() == UsageGrouping.BLOCK) {
        if (at == null) {
          untimed += responses;
        } else {
          blocks.add(at, responses, u, cost, unpriced, modelKey);
        }
        return;
      }
      String key = switch (q.by()) {
        case DAY -> local == null ? "unknown" : local.toString();
        case WEEK -> local == null ? "unknown"
            : String.format(java.util.Locale.ROOT, "%d-W%02d", local.get(IsoFields.WEEK_BASED_YEAR),
                local.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
        case MONTH -> local == null ? "unknown" : local.toString().substring(0, 7);
        case SESSION -> sessionId;
        case MODEL -> modelKey;
        case PROVIDER -> source;
        case PROJECT -> project == null || project.isBlank() ? "unknown" : project;
        case RESPONSE -> sessionId + " " + uuid;
        case BLOCK -> throw new IllegalStateException();
      };
      add(groups.computeIfAbsent(key, k -> new Acc()), responses, u, cost, unpriced, modelKey);
      if (q.breakdown()) {
        add(parts.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(modelKey, k -> new Acc()), responses,
            u, cost, unpriced, modelKey);
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
          rows.add(new UsageRow(b.start().atZone(q.zone()).toOffsetDateTime().toString(), b.responses(), b.usage(),
              b.costUsd(), b.unpricedResponses(), blocks.unpricedModels(b)));
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
          rejected, newestDay, warnings, recorded, breakdown, blockList);
    }
  }

  private static LocalDate utcDay(String day) {
    try {
      return day == null || day.length() < 10 ? null : LocalDate.parse(day.substring(0, 10));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** A transcript's timestamp as an instant, or null when it is missing or unreadable. */
  static Instant instant(String timestamp) {
    if (timestamp == null || timestamp.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(timestamp).toInstant();
      } catch (DateTimeParseException e2) {
        try {
          return ZonedDateTime.parse(timestamp).toInstant();
        } catch (DateTimeParseException e3) {
          return null;
        }
      }
    }
  }

  static UsageReport build(TranscriptStore store, UsageQuery q, PriceTable prices, String sessionId) {
    Builder b = new Builder(q, prices);
    long[] bounds = TranscriptStore.contextBounds();
    Set<Long> boundSet = new TreeSet<>();
    for (long x : bounds) {
      boundSet.add(x);
    }
    boolean timed = q.by() == UsageGrouping.BLOCK || !q.utcDays();
    if (timed || q.by() == UsageGrouping.RESPONSE || !boundSet.containsAll(prices.tierStarts())) {
      store.forEachUsageResponse(sessionId, timed, r -> b.add(r.sessionId(), r.source(), r.project(), r.uuid(),
          r.day(), timed ? instant(r.timestamp()) : null, r.model(), 1, r.usage(), r.usage().plausible()
              ? r.usage().input() + r.usage().cacheRead() + r.usage().cacheCreation() : -1));
    } else {
      store.forEachUsageTotal(sessionId, t -> b.add(t.sessionId(), t.source(), t.project(), null, t.day(), null,
          t.model(), t.responses(), t.usage(), t.bucket() < 0 ? -1 : t.bucket() == 0 ? 0 : bounds[t.bucket() - 1] + 1));
    }
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
