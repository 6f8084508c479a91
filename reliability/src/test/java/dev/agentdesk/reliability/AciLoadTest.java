package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbExtension;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Concurrent ACI clients (32 × 1 000 mixed actions under -Preliability) against one runtime on a
 * real Xvfb: clicks, screenshots and execs. Zero protocol errors — no timeout, no closed session,
 * no reply of the wrong shape, no error other than the documented exec concurrency cap — and the
 * latency percentiles per verb are reported.
 */
@ExtendWith(XvfbExtension.class)
class AciLoadTest {
  private static final String TOKEN = "load-token";
  /** The runtime's documented answer when more than 4 execs run at once; a policy, not a protocol error. */
  private static final String EXEC_CAP = "max concurrent execs reached";

  @Test
  void concurrentClientsSeeNoProtocolErrors(XDisplay x) throws Exception {
    int clients = Size.pick(6, 32);
    int actionsEach = Size.pick(60, 1000);
    Map<String, Latencies> byVerb = new ConcurrentHashMap<>();
    AtomicInteger protocolErrors = new AtomicInteger();
    AtomicInteger execCapped = new AtomicInteger();
    List<String> firstErrors = new ArrayList<>();
    try (AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, true, List.of(),
        x.name(), SessionLimits.defaults(), "load"))) {
      URI uri = URI.create("ws://127.0.0.1:" + runtime.port());
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int seed = c;
        done.add(pool.submit(() -> {
          Map<String, Latencies> mine = Map.of("click", new Latencies(), "screenshot", new Latencies(),
              "exec", new Latencies());
          SplittableRandom random = new SplittableRandom(seed);
          try (AciClient client = AciClient.connect(uri, AciClientOptions.defaults().withToken(TOKEN)
              .withCallTimeout(Duration.ofSeconds(60)))) {
            for (int i = 0; i < actionsEach; i++) {
              int kind = random.nextInt(10);
              String verb = kind < 5 ? "click" : kind < 8 ? "screenshot" : "exec";
              long t0 = System.nanoTime();
              try {
                switch (verb) {
                  case "click" -> client.click(Target.px(random.nextInt(x.width()), random.nextInt(x.height())));
                  case "screenshot" -> client.screenshot(new ObserveSpec(null, ImageFormat.JPEG, 80, 640));
                  default -> assertThat(client.exec(List.of("/bin/echo", "load-" + seed)).stdout())
                      .isEqualTo("load-" + seed + "\n");
                }
                mine.get(verb).add(System.nanoTime() - t0);
              } catch (AciClientException e) {
                if (e.reason() == AciClientException.Reason.REMOTE_ERROR && e.getMessage().contains(EXEC_CAP)) {
                  execCapped.incrementAndGet();
                } else {
                  protocolErrors.incrementAndGet();
                  synchronized (firstErrors) {
                    if (firstErrors.size() < 5) {
                      firstErrors.add(verb + ": " + e.getMessage());
                    }
                  }
                }
              }
            }
          }
          mine.forEach((k, v) -> byVerb.computeIfAbsent(k, z -> new Latencies()).addAll(v));
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.MINUTES);
      }
      pool.shutdown();
    }
    assertThat(firstErrors).as("protocol errors").isEmpty();
    assertThat(protocolErrors.get()).isZero();
    Figures f = Figures.of("ACI runtime under concurrent clients").put("clients", clients)
        .put("actions", clients * actionsEach).put("protocol_errors", protocolErrors.get())
        .put("exec_cap_refusals", execCapped.get());
    byVerb.forEach((verb, l) -> f.put(verb + "_n", l.count()).put(verb + "_p50_ms", l.percentileMillis(50))
        .put(verb + "_p99_ms", l.percentileMillis(99)));
    f.write(clients + " clients × " + actionsEach + " mixed actions", "0 protocol errors");
  }
}
