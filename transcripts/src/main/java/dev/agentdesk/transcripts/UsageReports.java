package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.cost.ModelPrice;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.cost.Rates;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.store.TranscriptStore;
import java.util.ArrayList;
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
 * applied to every counted response instead, which is exact and slower.
 */
final class UsageReports {
  private UsageReports() {}

  /** One group being summed. */
  private static final class Acc {
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
    final UsageGrouping by;
    final PriceTable prices;
    final Map<String, Acc> groups = new TreeMap<>();
    final Map<String, Optional<ModelPrice>> models = new HashMap<>();
    final Set<String> rejectedSessions = new TreeSet<>();
    long rejected;
    String newestDay;

    Builder(UsageGrouping by, PriceTable prices) {
      this.by = by;
      this.prices = prices;
    }

    void add(String sessionId, String source, String project, String uuid, String day, String model, long responses,
        TokenUsage u, long context) {
      if (context < 0) {
        rejected += responses;
        rejectedSessions.add(sessionId);
        return;
      }
      if (!day.isEmpty() && (newestDay == null || day.compareTo(newestDay) > 0)) {
        newestDay = day;
      }
      String key = switch (by) {
        case DAY -> day.isEmpty() ? "unknown" : day;
        case SESSION -> sessionId;
        case MODEL -> model.isEmpty() ? "unknown" : model;
        case PROVIDER -> source;
        case PROJECT -> project == null || project.isBlank() ? "unknown" : project;
        case RESPONSE -> sessionId + " " + uuid;
      };
      Acc a = groups.computeIfAbsent(key, k -> new Acc());
      a.add(responses, u);
      Optional<ModelPrice> price = model.isEmpty() ? Optional.empty()
          : models.computeIfAbsent(model, prices::find);
      if (price.isPresent()) {
        Rates r = price.get().at(day);
        a.cost += r.usd(u, context);
      } else if (!u.isZero()) {
        a.unpriced += responses;
        a.unpricedModels.add(model.isEmpty() ? "unknown" : model);
      }
    }

    UsageReport report(Map<String, Double> recorded) {
      List<UsageRow> rows = new ArrayList<>(groups.size());
      Acc total = new Acc();
      groups.forEach((k, a) -> {
        rows.add(a.row(k));
        total.add(a);
      });
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
      if (prices.published() != null && newestDay != null && newestDay.compareTo(prices.published()) > 0) {
        warnings.add("the price table (" + prices.source() + " " + prices.version() + ", published "
            + prices.published() + ") is older than the newest usage (" + newestDay + "): prices changed since are"
            + " not known; refresh it with 'agentdesk prices update --from FILE'");
      }
      return new UsageReport(by, rows, total.row("total"), prices.source(), prices.version(), prices.published(),
          rejected, newestDay, warnings, recorded);
    }
  }

  static UsageReport build(TranscriptStore store, UsageGrouping by, PriceTable prices, String sessionId) {
    Builder b = new Builder(by, prices);
    long[] bounds = TranscriptStore.contextBounds();
    Set<Long> boundSet = new TreeSet<>();
    for (long x : bounds) {
      boundSet.add(x);
    }
    if (by == UsageGrouping.RESPONSE || !boundSet.containsAll(prices.tierStarts())) {
      store.forEachUsageResponse(sessionId, r -> b.add(r.sessionId(), r.source(), r.project(), r.uuid(), r.day(),
          r.model(), 1, r.usage(), r.usage().plausible()
              ? r.usage().input() + r.usage().cacheRead() + r.usage().cacheCreation() : -1));
    } else {
      store.forEachUsageTotal(sessionId, t -> b.add(t.sessionId(), t.source(), t.project(), null, t.day(), t.model(),
          t.responses(), t.usage(), t.bucket() < 0 ? -1 : t.bucket() == 0 ? 0 : bounds[t.bucket() - 1] + 1));
    }
    Map<String, Double> recorded = new HashMap<>();
    if (by == UsageGrouping.SESSION) {
      store.recordedCosts(sessionId).forEach((id, usd) -> {
        if (b.groups.containsKey(id)) {
          recorded.put(id, usd);
        }
      });
    }
    return b.report(recorded);
  }
}
