package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.cost.ModelPrice;
import dev.agentdesk.transcripts.cost.Price;
import dev.agentdesk.transcripts.cost.PriceFiles;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.cost.Rates;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code agentdesk prices}: the model price table that usage cost comes from. */
@Command(name = "prices", mixinStandardHelpOptions = true,
    description = {"The model price table behind the cost in 'history usage' (USD per million tokens).",
        "Bundled: genai-prices (MIT), pinned. 'prices update --from FILE' installs a newer table",
        "(that project's data.json) as $XDG_CONFIG_HOME/agentdesk/prices.json; your own prices go in",
        "$XDG_CONFIG_HOME/agentdesk/price-overrides.json as",
        "  {\"models\": {\"NAME or PREFIX*\": {\"input_mtok\": 3, \"output_mtok\": 15, \"cache_write_mtok\": 3.75,",
        "   \"cache_write_1h_mtok\": 6, \"cache_read_mtok\": 0.3}}}",
        "and are looked up first."},
    subcommands = {PricesCommand.Update.class})
public final class PricesCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--config-dir", paramLabel = "DIR",
      description = "Folder of prices.json and price-overrides.json (default $XDG_CONFIG_HOME/agentdesk)")
  Path configDir;

  @Parameters(paramLabel = "MODEL", arity = "0..*", description = "Models to look up, as transcripts name them")
  List<String> models = List.of();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PriceFiles files = Costs.files(configDir);
    PriceFiles.Loaded loaded = Costs.load(configDir, spec.commandLine().getErr());
    PriceTable t = loaded.table();
    out.printf("price table: %s %s%s, %d models%n", t.source(), t.version(),
        t.published() == null ? "" : " (published " + t.published() + ")", t.modelCount());
    out.printf("installed table: %s%s%n", files.tableFile(), Files.exists(files.tableFile()) ? "" : " (none: bundled)");
    out.printf("overrides: %s%s%n", files.overridesFile(), Files.exists(files.overridesFile()) ? "" : " (none)");
    for (String m : models) {
      Optional<ModelPrice> p = t.find(m);
      if (p.isEmpty()) {
        out.printf("%s: unpriced (no entry matches)%n", m);
        continue;
      }
      Rates r = p.get().at(null);
      out.printf("%s: %s/%s  input %s  output %s  cache write %s  cache write 1h %s  cache read %s%n", m,
          p.get().provider(), p.get().id(), fmt(r.input()), fmt(r.output()), fmt(r.cacheWrite()), fmt(r.cacheWrite1h()),
          fmt(r.cacheRead()));
    }
    out.flush();
    return 0;
  }

  private static String fmt(Price p) {
    if (p == null) {
      return "-";
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%.4g", p.base()));
    for (Price.Tier tier : p.tiers()) {
      sb.append(String.format(Locale.ROOT, " (>%dk: %.4g)", tier.start() / 1000, tier.price()));
    }
    return sb.toString();
  }

  /** {@code prices update --from FILE}: check and install a price table. */
  @Command(name = "update", mixinStandardHelpOptions = true,
      description = "Check FILE (genai-prices data.json, bare or with source/version/published) and install it.")
  static final class Update implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    PricesCommand parent;

    @Option(names = "--from", required = true, paramLabel = "FILE", description = "The price data to install")
    Path from;

    @Override
    public Integer call() {
      if (!Files.isRegularFile(from)) {
        throw new UserError("no file " + from);
      }
      PriceFiles files = Costs.files(parent.configDir);
      PriceTable t;
      try {
        t = files.install(from);
      } catch (TranscriptException e) {
        throw new UserError(e.getMessage() + " (the installed table is unchanged)", e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf("installed %s: %s %s%s, %d models%n", files.tableFile(), t.source(), t.version(),
          t.published() == null ? "" : " (published " + t.published() + ")", t.modelCount());
      out.flush();
      return 0;
    }
  }
}
