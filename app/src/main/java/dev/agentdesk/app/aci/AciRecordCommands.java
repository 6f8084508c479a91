package dev.agentdesk.app.aci;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.recording.Divergence;
import dev.agentdesk.aci.recording.Recording;
import dev.agentdesk.aci.recording.RecordingException;
import dev.agentdesk.aci.recording.RecordingProxy;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.recording.ReplayReport;
import dev.agentdesk.aci.recording.Replayer;
import dev.agentdesk.app.runtime.ListenAddress;
import dev.agentdesk.app.runtime.StopSignals;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code agentdesk aci record} (a recording proxy) and {@code agentdesk aci replay}. */
public final class AciRecordCommands {
  private AciRecordCommands() {}

  @Command(name = "record", mixinStandardHelpOptions = true,
      description = {"Record every message between clients and the runtime at --url: a proxy clients connect to "
          + "instead of the runtime. Ctrl-C stops it; the folder is readable at any moment."})
  public static final class Record implements Callable<Integer> {
    @ParentCommand
    AciSessionOptions parent;

    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "A new folder for the recording.")
    Path out;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8766",
        description = "Where clients connect (default ${DEFAULT-VALUE}; port 0 picks a free one).")
    String listen;

    @Option(names = "--segment-mb", paramLabel = "N", defaultValue = "32",
        description = "Start a new segment file after N MiB (default ${DEFAULT-VALUE}).")
    long segmentMb;

    @Option(names = "--max-mb", paramLabel = "N", defaultValue = "1024",
        description = "Keep the folder under about N MiB, dropping the oldest segments (default ${DEFAULT-VALUE}).")
    long maxMb;

    private final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws InterruptedException {
      URI upstream = AciSession.uri(parent, System.getenv());
      ListenAddress addr;
      try {
        addr = ListenAddress.parse(listen);
      } catch (IllegalArgumentException e) {
        throw parent.userError("--listen: " + e.getMessage(), e);
      }
      RecordingWriter.Limits limits;
      try {
        limits = new RecordingWriter.Limits(segmentMb << 20, maxMb << 20);
      } catch (IllegalArgumentException e) {
        throw parent.userError("--segment-mb/--max-mb: need 1 <= segment <= max, got " + segmentMb + " and " + maxMb, e);
      }
      RecordingWriter writer;
      try {
        writer = RecordingWriter.open(out, limits);
      } catch (RecordingException e) {
        throw parent.userError(e.getMessage(), e);
      }
      RecordingProxy proxy;
      try {
        proxy = RecordingProxy.start(addr.host(), addr.port(), upstream, writer);
      } catch (RuntimeException e) {
        writer.close();
        throw parent.userError("cannot listen on " + listen + ": " + e.getMessage(), e);
      }
      PrintWriter o = spec.commandLine().getOut();
      o.printf("agentdesk aci record: clients connect to ws://%s:%d/ (forwarded to %s), recording into %s%n",
          addr.host(), proxy.port(), upstream, out);
      o.flush();
      try (StopSignals signals = StopSignals.install(stop::countDown)) {
        stop.await();
      } finally {
        proxy.close();
        writer.close();
      }
      o.printf("recorded %d bytes into %s%n", writer.bytes(), out);
      o.flush();
      return 0;
    }

    /** Stops a running record (what Ctrl-C does), for tests and embedding. */
    public void stop() {
      stop.countDown();
    }
  }

  @Command(name = "replay", mixinStandardHelpOptions = true,
      description = {"Send a recording's actions to the runtime at --url again and compare every reply: type and ok, "
          + "and for an observation its tree_text and its image (the frame hash, else the share of differing pixels "
          + "outside the --mask regions against --threshold: 1%% by default, which a blinking caret or a clock stays "
          + "under).",
          "Exit 0 when everything matched, 1 when something diverged (at the first divergence, or with --continue "
              + "after playing to the end; the recorded, replayed and diff images of each are written to "
              + "--report-dir), 2 on bad input or a runtime that does not answer."})
  public static final class Replay implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParentCommand
    AciSessionOptions parent;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The recording folder.")
    Path dir;

    @Option(names = "--fast", description = "Send each action as soon as the previous one is answered.")
    boolean fast;

    @Option(names = "--threshold", paramLabel = "PERCENT",
        description = "Share of pixels (outside the masks) that may differ when frame hashes do not match "
            + "(default 1).")
    Double thresholdPercent;

    @Option(names = "--mask", paramLabel = "X,Y,W,H",
        description = "A screen rectangle (global pixels) whose pixels are not compared, e.g. a clock; repeatable.")
    List<String> masks = new ArrayList<>();

    @Option(names = "--strict", description = "Exact frames: threshold 0 and no masks (a pixel still differs only "
        + "when a channel moves by more than 8, which absorbs jpeg noise).")
    boolean strict;

    @Option(names = "--continue", description = "Play on past a divergence to the end and list every divergence.")
    boolean keepGoing;

    @Option(names = "--report-dir", paramLabel = "DIR", description = "Where divergent images go (default DIR/replay-report).")
    Path reportDir;

    @Override
    public Integer call() {
      if (strict && (thresholdPercent != null || !masks.isEmpty())) {
        throw parent.userError("--strict compares exact frames; leave out --threshold and --mask", null);
      }
      double threshold = strict ? 0 : thresholdPercent != null ? thresholdPercent / 100.0 : Replayer.DEFAULT_THRESHOLD;
      if (threshold < 0 || threshold > 1) {
        throw parent.userError("--threshold must be 0 to 100 (percent), got " + thresholdPercent, null);
      }
      List<Replayer.Region> regions = new ArrayList<>();
      for (String m : masks) {
        try {
          regions.add(Replayer.Region.parse(m));
        } catch (IllegalArgumentException e) {
          throw parent.userError("--mask: " + e.getMessage(), e);
        }
      }
      URI url = AciSession.uri(parent, System.getenv());
      String token = AciSession.token(parent, System.getenv());
      Recording rec;
      try {
        rec = Recording.open(dir);
      } catch (RecordingException e) {
        throw parent.userError(e.getMessage(), e);
      }
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      if (rec.tornLines() > 0) {
        err.println("agentdesk aci replay: the recording's last line was cut short (recorder killed?); replaying "
            + "what is complete");
      }
      Replayer.Options options = new Replayer.Options(fast, threshold, regions, keepGoing,
          Duration.ofMillis(parent.timeoutMs()), reportDir != null ? reportDir : dir.resolve("replay-report"));
      ReplayReport r;
      try {
        r = Replayer.replay(rec, url, token, options, line -> {
          err.println("agentdesk aci replay: " + line);
          err.flush();
        });
      } catch (RecordingException e) {
        throw parent.userError(e.getMessage(), e);
      }
      if (parent.json()) {
        out.println(json(r));
      } else {
        text(out, r);
      }
      out.flush();
      return r.matched() ? 0 : 1;
    }

    private static ObjectNode json(ReplayReport r) {
      ObjectNode j = JSON.createObjectNode();
      j.put("matched", r.matched()).put("played_to_the_end", r.playedToTheEnd()).put("sent", r.sent())
          .put("recorded_messages", r.recordedMessages()).put("replies_compared", r.repliesCompared())
          .put("observations_compared", r.observationsCompared());
      ArrayNode all = j.putArray("divergences");
      for (Divergence d : r.divergences()) {
        ObjectNode dj = all.addObject().put("index", d.index()).put("call_id", d.callId()).put("what", d.what());
        dj.put("recorded_image", d.recordedImage() == null ? null : d.recordedImage().toString());
        dj.put("replayed_image", d.replayedImage() == null ? null : d.replayedImage().toString());
        dj.put("diff_image", d.diffImage() == null ? null : d.diffImage().toString());
        dj.put("tree_diff", d.treeDiff());
      }
      return j;
    }

    private static void text(PrintWriter out, ReplayReport r) {
      if (r.matched()) {
        out.printf("matched: %d messages sent, %d replies compared (%d observations)%n", r.sent(), r.repliesCompared(),
            r.observationsCompared());
        return;
      }
      for (Divergence d : r.divergences()) {
        out.printf("diverged at recording entry %d (call %s): %s%n", d.index(), d.callId(), d.what());
        if (d.recordedImage() != null) {
          out.printf("  recorded: %s%n", d.recordedImage());
        }
        if (d.replayedImage() != null) {
          out.printf("  replayed: %s%n", d.replayedImage());
        }
        if (d.diffImage() != null) {
          out.printf("  diff:     %s%n", d.diffImage());
        }
        if (d.treeDiff() != null) {
          d.treeDiff().lines().forEach(l -> out.printf("  %s%n", l));
        }
      }
      if (r.playedToTheEnd()) {
        out.printf("%d divergences: %d of %d messages sent, %d replies compared (%d observations)%n",
            r.divergences().size(), r.sent(), r.recordedMessages(), r.repliesCompared(), r.observationsCompared());
      } else {
        out.printf("stopped at the first divergence: %d of %d messages sent, %d replies compared (--continue plays "
            + "on)%n", r.sent(), r.recordedMessages(), r.repliesCompared());
      }
    }
  }
}
