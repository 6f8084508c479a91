package dev.agentdesk.bench.aci;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Ping and click round trips as a client in another process sees them (the JMH round-trip bench
 * runs its client in the runtime's own JVM): the runtime on the bench desktop here, and
 * {@code benchmarks/aci-outside-client.py} — a hand-written RFC 6455 client over a plain socket —
 * run as a child process, once plain and once offering permessage-deflate (as browsers and
 * WebSocket libraries do), alternating. Prints the client's JSON line per run.
 *
 * <p>Run: {@code java -cp benchmarks.jar dev.agentdesk.bench.aci.OutsideClientBench
 * benchmarks/aci-outside-client.py [RUNS [ROUNDS [PER_ROUND]]]}; the {@code aci} suite does.
 */
public final class OutsideClientBench {
  private static final String TOKEN = "bench";

  private OutsideClientBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: OutsideClientBench CLIENT.py [RUNS [ROUNDS [PER_ROUND]]]");
      System.exit(2);
    }
    String client = args[0];
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String rounds = args.length > 2 ? args[2] : "5";
    String perRound = args.length > 3 ? args[3] : "2000";
    try (BenchDesktop desktop = new BenchDesktop(1280, 800);
        AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(),
            desktop.display(), SessionLimits.defaults(), "bench"))) {
      for (int i = 0; i < runs; i++) {
        for (boolean deflate : new boolean[] {false, true}) {
          System.out.println(run(client, runtime.port(), rounds, perRound, deflate));
        }
      }
    }
  }

  private static String run(String client, int port, String rounds, String perRound, boolean deflate)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("python3", client, Integer.toString(port), TOKEN, rounds, perRound));
    if (deflate) {
      cmd.add("--offer-deflate");
    }
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (p.waitFor() != 0 || out.isEmpty()) {
      throw new IllegalStateException("outside client failed (exit " + p.exitValue() + "): " + out);
    }
    return out;
  }
}
