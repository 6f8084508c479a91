package dev.agentdesk.bench.atspi;

import dev.agentdesk.aci.runtime.atspi.AtspiElement;
import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.atspi.AtspiWire;
import dev.agentdesk.aci.runtime.atspi.Observation;
import dev.agentdesk.aci.runtime.atspi.ObserveRequest;
import dev.agentdesk.aci.runtime.atspi.StructuredObserver;
import dev.agentdesk.aci.wire.WireCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Sizes, not times: bytes of {@code tree_text} for gtk3-widget-factory in full and as a diff
 * after three edits, against a PNG screenshot of the same window. Prints a markdown table.
 * Usage (from the suite script): {@code java -cp benchmarks.jar
 * dev.agentdesk.bench.atspi.ObserveSizes WINDOW_ID}.
 */
public final class ObserveSizes {
  private ObserveSizes() {}

  public static void main(String[] args) throws Exception {
    String window = args[0];
    try (AtspiEngine engine = AtspiEngine.create(BenchDesktop.settings());
        StructuredObserver o = engine.openSession()) {
      BenchDesktop.awaitFactory(o);
      Observation full = o.observe(ObserveRequest.FULL);

      // Three edits an agent might make: tick a box, move a slider, type into an entry.
      AtspiElement box = full.elements().stream()
          .filter(e -> e.role().equals("check box") && e.hasState("sensitive")
              && !e.hasState("checked") && !e.hasState("indeterminate"))
          .findFirst().orElseThrow();
      AtspiElement slider = full.elements().stream()
          .filter(e -> e.role().equals("slider") && e.hasState("sensitive"))
          .findFirst().orElseThrow();
      AtspiElement entry = full.elements().stream()
          .filter(e -> e.role().equals("text") && e.hasState("editable")
              && e.hasState("sensitive"))
          .findFirst().orElseThrow();
      o.invokeAction(box.ref(), null);
      o.setValue(slider.ref(), "75");
      o.setValue(entry.ref(), "hello from the agent");
      Observation diff = o.observe(new ObserveRequest(true, 200));
      if (diff.tree() != Observation.TreeForm.DIFF) {
        throw new IllegalStateException("expected a diff, got:\n" + diff.treeText());
      }
      Observation quiet = o.observe(new ObserveRequest(true, 0));
      long png = screenshotBytes(window);
      boolean same = cachedEqualsUncached(engine);

      int fullBytes = utf8(full.treeText());
      int diffBytes = utf8(diff.treeText());
      int quietBytes = utf8(quiet.treeText());
      int jsonBytes = utf8(WireCodec.encode(AtspiWire.observation("bench", full)));
      System.out.println("| gtk3-widget-factory, page 1 | agentdesk | Shinken (reported) |");
      System.out.println("| --- | ---: | ---: |");
      System.out.println("| elements (node_count) | " + full.nodeCount() + " | — |");
      System.out.println("| tree_text, full | " + kib(fullBytes) + " | 10.4 KiB |");
      System.out.println("| tree_text, diff after 3 edits | " + kib(diffBytes) + " | 2.0 KiB |");
      System.out.println("| tree_text, diff with no change | " + kib(quietBytes) + " | — |");
      System.out.println("| PNG screenshot of the window | " + kib((int) png) + " | 76.5 KiB |");
      System.out.println("| whole observation JSON (full, with elements) | " + kib(jsonBytes)
          + " | — |");
      System.out.println();
      System.out.println("After the edits, a new session on this (cached, warm) engine and one on an uncached"
          + " engine observe once each: tree_text and elements (refs, boxes, states, values) "
          + (same ? "are equal." : "DIFFER — the cache is stale."));
      System.out.println();
      System.out.println("The diff after the three edits:");
      System.out.println();
      System.out.println("```");
      System.out.println(diff.treeText());
      System.out.println("```");
    }
  }

  /** Fresh sessions mint refs in walk order, so both observations must match exactly. */
  private static boolean cachedEqualsUncached(AtspiEngine cached) {
    try (AtspiEngine plain = AtspiEngine.create(BenchDesktop.settings().withEventCache(false));
        StructuredObserver u = plain.openSession();
        StructuredObserver c = cached.openSession()) {
      Observation truth = u.observe(ObserveRequest.FULL);
      Observation fromCache = c.observe(ObserveRequest.FULL);
      return truth.treeText().equals(fromCache.treeText())
          && truth.elements().equals(fromCache.elements());
    }
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String kib(int bytes) {
    return String.format(Locale.ROOT, "%.1f KiB (%,d B)", bytes / 1024.0, bytes);
  }

  private static long screenshotBytes(String window) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("import", "-window", window, "png:-")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    long n = p.getInputStream().readAllBytes().length;
    if (p.waitFor() != 0 || n == 0) {
      throw new IOException("import -window " + window + " failed");
    }
    return n;
  }
}
