package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.transcripts.Provider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdesk serve} as a child process with 5 agent sessions (PTY terminals started through
 * {@code POST /api/terminals}, each a script printing a line every 200 ms), a dashboard client on
 * every WebSocket, and a tailing import of session files that keep growing — for 30 minutes under
 * -Preliability ({@code -Dagentdesk.soak.seconds=N} for any other length; 30 s by default).
 * Resident memory (VmRSS), open file descriptors and the live heap after a full GC of the server
 * are sampled (every 30 s in the full run) and must stay flat after the warm-up ({@link Flatness}).
 *
 * <p>The server's heap is fixed and pre-touched ({@code -Xms=-Xmx, -XX:+AlwaysPreTouch}), so RSS
 * does not rise while the collector first spreads over the heap; RSS then shows native growth
 * (threads, code, direct buffers, SQLite, PTYs) and the live heap shows Java objects kept.
 */
class SoakTest {
  private static final long SEED = 0x50A4_7E57L;
  private static final int AGENTS = 5;
  private static final String AGENT_SCRIPT = """
      seq -f 'earlier output %g' 1 12000
      i=0
      while :; do
        i=$((i + 1))
        printf '\\033[1;34m●\\033[0m step %d: editing src/Main%d.java \\033[2m(%d tokens)\\033[0m\\n' $i $((i % 7)) $((i * 37))
        sleep 0.2
      done
      """;
  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

  @Test
  void serverWithAgentsAndTailingImportStaysFlat(@TempDir Path tmp) throws Exception {
    long seconds = soakSeconds();
    boolean longRun = seconds >= 600;
    long sampleEvery = longRun ? 30 : Math.max(2, seconds / 10);
    // Long runs: the first 5 minutes are warm-up; short runs: the first fifth.
    long warmupSeconds = longRun ? 300 : seconds / 5;
    double rssBoundFraction = longRun ? 0.05 : 0.15;
    int fdBound = longRun ? 2 : 6;
    double heapBoundFraction = longRun ? 0.10 : 0.25;

    Path claude = Files.createDirectories(tmp.resolve("claude"));
    Path codex = Files.createDirectories(tmp.resolve("codex"));
    HistoryCorpus.build(claude, codex, 1);
    Path log = tmp.resolve("serve.log");
    List<String> jvm = List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch");
    try (ServeChild server = ServeChild.start(tmp.resolve("home"), tmp.resolve("history.db"), claude, codex, jvm, log)) {
      String base = "http://127.0.0.1:" + server.port();
      String auth = "Bearer " + server.token();
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      AtomicLong wsMessages = new AtomicLong();
      AtomicReference<String> wsClosed = new AtomicReference<>();
      List<WebSocket> sockets = new ArrayList<>();
      sockets.add(openSocket(http, auth, "ws://127.0.0.1:" + server.port() + "/ws/events", wsMessages, wsClosed));
      List<String> terminals = new ArrayList<>();
      for (int a = 0; a < AGENTS; a++) {
        String body = "{\"argv\":[\"sh\",\"-c\"," + jsonString(AGENT_SCRIPT) + "],\"cwd\":" + jsonString(tmp.toString())
            + ",\"cols\":120,\"rows\":36}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/terminals"))
            .header("Authorization", auth).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("POST /api/terminals: %s", r.body()).isEqualTo(201);
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        assertThat(m.find()).as("terminal id in %s", r.body()).isTrue();
        terminals.add(m.group(1));
        sockets.add(openSocket(http, auth, "ws://127.0.0.1:" + server.port() + "/ws/terminals/" + m.group(1), wsMessages,
            wsClosed));
      }

      // The tailing import's food: session after session replayed line by line, about 5 lines/s.
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> writerFailure = new AtomicReference<>();
      List<Path> written = new ArrayList<>();
      Path claudeSeed = HistoryCorpus.largestSeed(Provider.CLAUDE);
      Path codexSeed = HistoryCorpus.largestSeed(Provider.CODEX);
      Thread writer = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(SEED);
        try {
          for (int round = 0; !stop.get(); round++) {
            List<LiveSessionWriter.Live> live = List.of(
                LiveSessionWriter.Live.replay(claudeSeed, HistoryCorpus.claudeFile(claude, "-soak", id("claude", round))),
                LiveSessionWriter.Live.replay(codexSeed, HistoryCorpus.codexFile(codex, 27, id("codex", round))));
            synchronized (written) {
              live.forEach(l -> written.add(l.file()));
            }
            new LiveSessionWriter(live, random.nextLong(), 200, stop::get).run();
          }
        } catch (Throwable e) {
          writerFailure.set(e);
        }
      }, "soak-session-writer");
      writer.start();

      List<Double> t = new ArrayList<>();
      List<Double> rssMb = new ArrayList<>();
      List<Double> fds = new ArrayList<>();
      List<Double> heapMb = new ArrayList<>();
      int apiCalls = 0;
      long start = System.nanoTime();
      long end = start + TimeUnit.SECONDS.toNanos(seconds);
      for (long next = start; next <= end; next += TimeUnit.SECONDS.toNanos(sampleEvery)) {
        Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
        // What a dashboard does between samples: list terminals and sessions, read one screen.
        for (String path : List.of("/api/terminals", "/api/history/sessions?limit=20", "/api/history/import",
            "/api/terminals/" + terminals.get(apiCalls % AGENTS) + "/snapshot?format=text")) {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", auth).build(),
              HttpResponse.BodyHandlers.ofString());
          assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
          apiCalls++;
        }
        t.add((System.nanoTime() - start) / 1e9);
        heapMb.add(liveHeapMb(server.pid(), tmp));
        rssMb.add(rssKb(server.pid()) / 1024.0);
        fds.add((double) openFds(server.pid()));
      }
      stop.set(true);
      writer.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(writerFailure.get()).as("session writer failure").isNull();
      assertThat(wsClosed.get()).as("a dashboard socket closed during the soak").isNull();
      assertThat(server.process().isAlive()).as("server alive; log %s", log).isTrue();
      for (String id : terminals) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/terminals/" + id
            + "/snapshot?format=text")).header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).as("terminal %s still printing", id).contains("step ");
      }
      List<Path> files;
      synchronized (written) {
        files = List.copyOf(written);
      }
      awaitImported(tmp.resolve("history.db"), files);
      sockets.forEach(ws -> ws.sendClose(WebSocket.NORMAL_CLOSURE, "done"));

      int warmup = (int) t.stream().filter(s -> s < warmupSeconds).count();
      Flatness rss = Flatness.of(t, rssMb, warmup);
      Flatness fd = Flatness.of(t, fds, warmup);
      Flatness heap = Flatness.of(t, heapMb, warmup);
      Figures.of("Soak: server + 5 agent terminals + tailing import")
          .put("seconds", seconds).put("sample_every_s", sampleEvery).put("warmup_s", warmupSeconds)
          .put("samples", t.size())
          .put("rss_mb_first", round(rss.first())).put("rss_mb_last", round(rss.last()))
          .put("rss_growth_mb", round(rss.growth())).put("rss_thirds_rise_mb", round(rss.thirdsRise()))
          .put("fds_first", fd.first()).put("fds_last", fd.last()).put("fds_growth", round(fd.growth()))
          .put("fds_thirds_rise", fd.thirdsRise())
          .put("live_heap_mb_first", round(heap.first())).put("live_heap_mb_last", round(heap.last()))
          .put("live_heap_growth_mb", round(heap.growth())).put("live_heap_thirds_rise_mb", round(heap.thirdsRise()))
          .put("session_files_appended", files.size()).put("api_calls", apiCalls).put("ws_messages", wsMessages.get())
          .write(seconds + " s, " + AGENTS + " agent terminals, tailing import, sample every " + sampleEvery + " s",
              String.format("flat after warm-up: RSS rise ≤ %.0f%%, fds rise ≤ %d, live heap rise ≤ %.0f%% "
                  + "(least-squares and last-third vs first-third)",
                  rssBoundFraction * 100, fdBound, heapBoundFraction * 100));
      assertThat(rss.flatWithin(rssBoundFraction * rss.mean())).as("RSS: %s", rss.describe("MB")).isTrue();
      assertThat(fd.flatWithin(fdBound)).as("open fds: %s", fd.describe("fds")).isTrue();
      assertThat(heap.flatWithin(heapBoundFraction * heap.mean() + 2)).as("live heap: %s", heap.describe("MB"))
          .isTrue();
    }
  }

  /** Session ids are unique per file: two files claiming one session would be a conflict, not a tail. */
  private static String id(String kind, int round) {
    return UUID.nameUUIDFromBytes(("soak-" + kind + "-" + round).getBytes()).toString();
  }

  private static long soakSeconds() {
    String s = System.getProperty("agentdesk.soak.seconds", "");
    return s.isBlank() ? Size.pick(30L, 1800L) : Long.parseLong(s.trim());
  }

  private static WebSocket openSocket(HttpClient http, String auth, String url, AtomicLong messages,
      AtomicReference<String> closed) throws Exception {
    return http.newWebSocketBuilder().header("Authorization", auth).buildAsync(URI.create(url), new WebSocket.Listener() {
      @Override
      public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        messages.incrementAndGet();
        ws.request(1);
        return null;
      }

      @Override
      public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        closed.compareAndSet(null, url + " closed " + status + " " + reason);
        return null;
      }

      @Override
      public void onError(WebSocket ws, Throwable error) {
        closed.compareAndSet(null, url + " failed: " + error);
      }
    }).get(30, TimeUnit.SECONDS);
  }

  /** Every written session file read to its end by the tailing import (60 s at most). */
  private static void awaitImported(Path db, List<Path> files) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<String> behind = List.of();
    while (System.nanoTime() < deadline) {
      behind = new ArrayList<>();
      try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
          var q = c.prepareStatement("SELECT byte_offset FROM cursors WHERE path = ?")) {
        for (Path f : files) {
          q.setString(1, f.toString());
          try (var rs = q.executeQuery()) {
            long at = rs.next() ? rs.getLong(1) : -1;
            if (at != Files.size(f)) {
              behind.add(f.getFileName() + " at " + at + " of " + Files.size(f));
            }
          }
        }
      }
      if (behind.isEmpty()) {
        return;
      }
      Thread.sleep(200);
    }
    assertThat(behind).as("session files the tailing import did not finish").isEmpty();
  }

  static long rssKb(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS for pid " + pid);
  }

  static long openFds(long pid) throws IOException {
    try (var s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      return s.count();
    }
  }

  /** A full GC in the server, then its heap in use: what the server keeps, not what it churns. */
  private static double liveHeapMb(long pid, Path tmp) throws Exception {
    Path cmds = tmp.resolve("jcmd.txt");
    Files.writeString(cmds, "GC.run\nGC.heap_info\n");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid), "-f", cmds.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jcmd finished").isTrue();
    Matcher m = HEAP_USED.matcher(out);
    assertThat(m.find()).as("heap in jcmd output: %s", out).isTrue();
    return Long.parseLong(m.group(1)) / 1024.0;
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static String jsonString(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
