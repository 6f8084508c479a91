package dev.agentdesk.transcripts.cost;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptException.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Model prices: where they came from ({@link #source}, {@link #version}, {@link #published}) and
 * a lookup by model name as transcripts write it. Immutable and safe to share between threads.
 *
 * <p>The data is the genai-prices vocabulary (an array of providers, each with models that have a
 * {@code match} rule and {@code prices}, either one price set or a list of price sets with
 * {@code start_date} constraints), either bare (that project's {@code data.json}) or wrapped in an
 * object that also says {@code source}, {@code version} and {@code published}, as the bundled table is.
 */
public final class PriceTable {
  private static final String BUNDLED = "/dev/agentdesk/transcripts/cost/prices.json";

  /** A provider's models in the order the data lists them (the first match wins). */
  private record Provider(String id, Match modelMatch, List<Entry> models) {}

  private record Entry(Match match, ModelPrice price) {}

  private final String source;
  private final String version;
  private final String published;
  private final List<Provider> providers;
  /** Overrides are looked up before the table; null when there are none. */
  private final PriceTable overrides;
  private final Map<String, Optional<ModelPrice>> cache = new ConcurrentHashMap<>();

  private PriceTable(String source, String version, String published, List<Provider> providers, PriceTable overrides) {
    this.source = source;
    this.version = version;
    this.published = published;
    this.providers = List.copyOf(providers);
    this.overrides = overrides;
  }

  /** The table shipped with this build (genai-prices, pinned; see {@code prices.json} beside this class). */
  public static PriceTable bundled() {
    try (InputStream in = PriceTable.class.getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new TranscriptException(Reason.BAD_PRICE_FILE, "the bundled price table " + BUNDLED + " is missing");
      }
      return parse(in.readAllBytes(), "the bundled price table");
    } catch (IOException e) {
      throw new TranscriptException(Reason.BAD_PRICE_FILE, "cannot read the bundled price table: " + e, e);
    }
  }

  /**
   * Parses a price table.
   *
   * @param origin names the data in error messages (a file name)
   * @throws TranscriptException {@code BAD_PRICE_FILE} naming what is wrong and where
   */
  public static PriceTable parse(byte[] json, String origin) {
    JsonNode root;
    try {
      root = JsonTree.read(json);
    } catch (IOException e) {
      throw bad(origin, "not JSON: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
    if (root == null) {
      throw bad(origin, "empty");
    }
    JsonNode list = root.isArray() ? root : root.get("providers");
    if (list == null || !list.isArray()) {
      throw bad(origin, "expected an array of providers or an object with \"providers\"");
    }
    List<Provider> providers = new ArrayList<>();
    for (JsonNode p : list) {
      String id = text(p, "id", origin, "a provider");
      JsonNode mm = p.get("model_match");
      Match providerMatch = mm == null || mm.isNull() ? null : match(mm, origin, "provider " + id);
      JsonNode models = p.get("models");
      if (models == null || !models.isArray()) {
        throw bad(origin, "provider " + id + " has no \"models\" array");
      }
      List<Entry> entries = new ArrayList<>();
      for (JsonNode m : models) {
        String modelId = text(m, "id", origin, "a model of provider " + id);
        String where = "model " + id + "/" + modelId;
        JsonNode match = m.get("match");
        Match rule = match == null ? new Match.Equals(modelId) : match(match, origin, where);
        entries.add(new Entry(rule, new ModelPrice(modelId, id, periods(m.get("prices"), origin, where))));
      }
      providers.add(new Provider(id, providerMatch, entries));
    }
    if (providers.isEmpty()) {
      throw bad(origin, "no providers");
    }
    return new PriceTable(root.path("source").asText(origin), root.path("version").asText("unversioned"),
        root.path("published").asText(null), providers, null);
  }

  /**
   * User overrides: {@code {"models": {"NAME": PRICES, "PREFIX*": PRICES}}} where PRICES is a
   * genai-prices price set ({@code input_mtok}, {@code output_mtok}, {@code cache_write_mtok},
   * {@code cache_write_1h_mtok}, {@code cache_read_mtok}, each a number or {@code {base, tiers}})
   * or a list of them with {@code start_date} constraints. A name ending in {@code *} covers every
   * model whose name starts with the rest.
   */
  public static PriceTable parseOverrides(byte[] json, String origin) {
    JsonNode root;
    try {
      root = JsonTree.read(json);
    } catch (IOException e) {
      throw bad(origin, "not JSON: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
    JsonNode models = root == null ? null : root.get("models");
    if (models == null || !models.isObject()) {
      throw bad(origin, "expected {\"models\": {\"model-name\": {\"input_mtok\": …, \"output_mtok\": …}}}");
    }
    List<Entry> entries = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = models.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      String name = e.getKey();
      Match rule = name.endsWith("*") ? new Match.StartsWith(name.substring(0, name.length() - 1))
          : new Match.Equals(name);
      entries.add(new Entry(rule, new ModelPrice(name, "override", periods(e.getValue(), origin, "model " + name))));
    }
    return new PriceTable(origin, "user overrides", null, List.of(new Provider("override", null, entries)), null);
  }

  /** This table with {@code overrides} looked up first. */
  public PriceTable withOverrides(PriceTable overrides) {
    return new PriceTable(source, version, published, providers, overrides);
  }

  public String source() {
    return source;
  }

  public String version() {
    return version;
  }

  /** The day the data was published ({@code YYYY-MM-DD}), or null if the data does not say. */
  public String published() {
    return published;
  }

  /** Number of models the table prices (overrides included). */
  public int modelCount() {
    return providers.stream().mapToInt(p -> p.models().size()).sum()
        + (overrides == null ? 0 : overrides.modelCount());
  }

  /** Every context size above which some price of this table (or its overrides) changes. */
  public Set<Long> tierStarts() {
    Set<Long> out = new TreeSet<>();
    for (Provider p : providers) {
      for (Entry e : p.models()) {
        for (ModelPrice.Period period : e.price().periods()) {
          Rates r = period.rates();
          for (Price price : new Price[] {r.input(), r.output(), r.cacheWrite(), r.cacheWrite1h(), r.cacheRead()}) {
            if (price != null) {
              price.tiers().forEach(t -> out.add(t.start()));
            }
          }
        }
      }
    }
    if (overrides != null) {
      out.addAll(overrides.tierStarts());
    }
    return out;
  }

  /**
   * The prices of {@code model} as a transcript names it; empty when the table does not know it.
   * Overrides first; then each name of {@link ModelNames#candidates}, in the providers whose model
   * rule matches the name first.
   */
  public Optional<ModelPrice> find(String model) {
    if (model == null || model.isBlank()) {
      return Optional.empty();
    }
    return cache.computeIfAbsent(model, this::lookup);
  }

  private Optional<ModelPrice> lookup(String model) {
    if (overrides != null) {
      Optional<ModelPrice> o = overrides.find(model);
      if (o.isPresent()) {
        return o;
      }
    }
    for (String name : ModelNames.candidates(model)) {
      // the providers whose model pattern takes the name first, then the others, each in table order
      // (a list, not a set: a Provider record's hash walks its whole price list, ~35 ms of a report)
      List<Provider> order = new ArrayList<>(providers.size());
      List<Provider> others = new ArrayList<>(providers.size());
      for (Provider p : providers) {
        (p.modelMatch() != null && p.modelMatch().test(name) ? order : others).add(p);
      }
      order.addAll(others);
      for (Provider p : order) {
        for (Entry e : p.models()) {
          if (e.match().test(name)) {
            return Optional.of(e.price());
          }
        }
      }
    }
    return Optional.empty();
  }

  // ---- parsing -------------------------------------------------------------------------------

  private static List<ModelPrice.Period> periods(JsonNode prices, String origin, String where) {
    if (prices == null || prices.isNull()) {
      throw bad(origin, where + " has no prices");
    }
    List<ModelPrice.Period> out = new ArrayList<>();
    if (prices.isObject()) {
      out.add(new ModelPrice.Period(null, rates(prices, origin, where)));
      return out;
    }
    if (!prices.isArray() || prices.isEmpty()) {
      throw bad(origin, where + ": prices must be an object or a non-empty list");
    }
    for (JsonNode p : prices) {
      JsonNode c = p.get("constraint");
      String start = null;
      if (c != null && !c.isNull()) {
        if (!"start_date".equals(c.path("type").asText("start_date")) || !c.hasNonNull("start_date")) {
          // Time-of-day prices (off-peak discounts) are not modelled; the undated prices stand.
          continue;
        }
        start = c.get("start_date").asText();
        if (!start.matches("\\d{4}-\\d{2}-\\d{2}.*")) {
          throw bad(origin, where + ": start_date '" + start + "' is not a date");
        }
        start = start.substring(0, 10);
      } else if (p.hasNonNull("start_date")) {
        start = p.get("start_date").asText().substring(0, Math.min(10, p.get("start_date").asText().length()));
      }
      JsonNode set = p.has("prices") ? p.get("prices") : p;
      out.add(new ModelPrice.Period(start, rates(set, origin, where)));
    }
    out.sort((a, b) -> a.start() == null ? (b.start() == null ? 0 : -1)
        : b.start() == null ? 1 : a.start().compareTo(b.start()));
    if (out.isEmpty()) {
      throw bad(origin, where + " has no usable prices");
    }
    return out;
  }

  private static Rates rates(JsonNode set, String origin, String where) {
    if (!set.isObject()) {
      throw bad(origin, where + ": a price set must be an object");
    }
    Price input = price(set.get("input_mtok"), origin, where, "input_mtok");
    Price output = price(set.get("output_mtok"), origin, where, "output_mtok");
    if (input == null || output == null) {
      // Image, audio or per-request models: nothing the token counts of a transcript can price.
      input = input == null ? Price.flat(0) : input;
      output = output == null ? Price.flat(0) : output;
    }
    return new Rates(input, output, price(set.get("cache_write_mtok"), origin, where, "cache_write_mtok"),
        price(set.get("cache_write_1h_mtok"), origin, where, "cache_write_1h_mtok"),
        price(set.get("cache_read_mtok"), origin, where, "cache_read_mtok"));
  }

  private static Price price(JsonNode v, String origin, String where, String field) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isNumber()) {
      return Price.flat(nonNegative(v.asDouble(), origin, where, field));
    }
    if (v.isObject() && v.has("base") && v.get("base").isNumber()) {
      List<Price.Tier> tiers = new ArrayList<>();
      for (JsonNode t : v.path("tiers")) {
        if (!t.path("start").isNumber() || !t.path("price").isNumber()) {
          throw bad(origin, where + ": " + field + " has a tier without a numeric start and price");
        }
        tiers.add(new Price.Tier(t.get("start").asLong(), nonNegative(t.get("price").asDouble(), origin, where, field)));
      }
      return new Price(nonNegative(v.get("base").asDouble(), origin, where, field), tiers);
    }
    throw bad(origin, where + ": " + field + " must be a number or {\"base\": …, \"tiers\": […]}");
  }

  private static double nonNegative(double d, String origin, String where, String field) {
    if (!Double.isFinite(d) || d < 0 || d > 1_000_000) {
      throw bad(origin, where + ": " + field + " = " + d + " is not a price per million tokens");
    }
    return d;
  }

  private static Match match(JsonNode m, String origin, String where) {
    if (m.has("or") || m.has("and")) {
      JsonNode list = m.has("or") ? m.get("or") : m.get("and");
      List<Match> parts = new ArrayList<>();
      for (JsonNode x : list) {
        parts.add(match(x, origin, where));
      }
      return m.has("or") ? new Match.Or(parts) : new Match.And(parts);
    }
    if (m.hasNonNull("equals")) {
      return new Match.Equals(m.get("equals").asText());
    }
    if (m.hasNonNull("starts_with")) {
      return new Match.StartsWith(m.get("starts_with").asText());
    }
    if (m.hasNonNull("ends_with")) {
      return new Match.EndsWith(m.get("ends_with").asText());
    }
    if (m.hasNonNull("contains")) {
      return new Match.Contains(m.get("contains").asText());
    }
    if (m.hasNonNull("regex")) {
      try {
        return new Match.Regex(Pattern.compile(m.get("regex").asText()));
      } catch (PatternSyntaxException e) {
        throw bad(origin, where + ": bad regex " + m.get("regex").asText());
      }
    }
    throw bad(origin, where + ": unknown match rule " + m);
  }

  private static String text(JsonNode n, String field, String origin, String what) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw bad(origin, what + " has no \"" + field + "\"");
    }
    return v.asText();
  }

  private static TranscriptException bad(String origin, String why) {
    return new TranscriptException(Reason.BAD_PRICE_FILE, origin + ": " + why);
  }
}
