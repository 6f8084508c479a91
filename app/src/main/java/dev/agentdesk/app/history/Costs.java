package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/** Prices for the CLI: where they are read from, how cost is printed, warnings on stderr. */
public final class Costs {
  private Costs() {}

  /** {@code dir} if given (tests, other setups), else {@code $XDG_CONFIG_HOME/agentdesk}. */
  public static PriceFiles files(Path dir) {
    return dir != null ? new PriceFiles(dir) : PriceFiles.fromEnvironment();
  }

  /** The prices to use; a file that cannot be used is a warning on {@code err}. */
  public static PriceFiles.Loaded load(Path dir, PrintWriter err) {
    try {
      PriceFiles.Loaded loaded = files(dir).load();
      loaded.warnings().forEach(w -> err.println("warning: " + w));
      return loaded;
    } catch (TranscriptException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  /**
   * The price table read on a daemon thread of its own from now on: parsing the bundled table is
   * ~40 ms of a short report or status line, which opens its database (~30–70 ms) meanwhile.
   */
  static final class Aside {
    private final java.util.concurrent.FutureTask<PriceFiles.Loaded> task;

    Aside(java.util.concurrent.Callable<PriceFiles.Loaded> read, String thread) {
      task = new java.util.concurrent.FutureTask<>(read);
      Thread t = new Thread(task, thread);
      t.setDaemon(true);
      t.start();
    }

    /** The table, once read; a failure of the reading as it was thrown there. */
    PriceFiles.Loaded get() {
      try {
        return task.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the price table was read", e);
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException("the price table could not be read", e.getCause());
      }
    }
  }

  /** A cost as a person reads it: cents for sums of a dollar or more, four decimals below. */
  public static String usd(double v) {
    return v >= 1 ? String.format(Locale.ROOT, "$%,.2f", v) : String.format(Locale.ROOT, "$%.4f", v);
  }

  /** The cost cell of a row: "unpriced" when nothing of it was priced, a trailing "+" when part was not. */
  public static String cell(UsageRow r) {
    if (r.responses() > 0 && !r.hasCost()) {
      return "unpriced";
    }
    return usd(r.costUsd()) + (r.fullyPriced() ? "" : "+");
  }

  /**
   * {@code cost_usd} (by the report's mode; null when nothing was priced), {@code calculated_cost_usd},
   * {@code recorded_cost_usd} and {@code cost_difference_usd} (recorded minus calculated of the same
   * responses; both null when no response of the row has a recorded cost), {@code unpriced_responses}
   * and {@code unpriced_models}.
   */
  public static void put(ObjectNode o, UsageRow r) {
    if (r.responses() > 0 && !r.hasCost()) {
      o.putNull("cost_usd");
    } else {
      o.put("cost_usd", round(r.costUsd()));
    }
    o.put("calculated_cost_usd", round(r.calculatedUsd()));
    if (r.recordedUsd() == null) {
      o.putNull("recorded_cost_usd");
      o.putNull("cost_difference_usd");
    } else {
      o.put("recorded_cost_usd", round(r.recordedUsd()));
      o.put("cost_difference_usd", round(r.differenceUsd()));
    }
    o.put("unpriced_responses", r.unpricedResponses());
    ArrayNode models = o.putArray("unpriced_models");
    r.unpricedModels().forEach(models::add);
  }

  static double round(double usd) {
    return Math.round(usd * 1e6) / 1e6;
  }

  /** The report's price source, warnings and rejected count, as the JSON and the API give them. */
  public static void putReport(ObjectNode o, UsageReport report) {
    o.put("mode", report.mode().id());
    o.putObject("prices").put("source", report.pricesSource()).put("version", report.pricesVersion())
        .put("published", report.pricesPublished());
    o.put("rejected_responses", report.rejectedResponses());
    ArrayNode w = o.putArray("warnings");
    report.warnings().forEach(w::add);
  }
}
