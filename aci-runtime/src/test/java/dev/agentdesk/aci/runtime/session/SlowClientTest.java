package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that stops reading for 10 s while a 30 fps full-frame stream of an ever-changing screen
 * runs (a noise picture shown by ImageMagick's {@code display}, moved by a pixel every 20 ms, so
 * every frame is a ~300 KB png). Jetty would queue every frame without limit; the runtime must
 * instead stop handing frames over while one is unwritten, so its unwritten bytes and heap stay
 * bounded, and once the client reads again the session answers and the stream resumes with a gap.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 400, height = 300)
class SlowClientTest {
  static final String TOKEN = "slow-token";
  static final long STALL_MS = 10_000;

  /** A JDK WebSocket whose reading the test switches off and on (no demand = no socket reads). */
  private static final class Stallable implements WebSocket.Listener {
    final BlockingQueue<String> inbox = new LinkedBlockingQueue<>();
    final AtomicBoolean reading = new AtomicBoolean(true);
    private final StringBuilder partial = new StringBuilder();
    private volatile boolean owed;
    volatile WebSocket ws;

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        inbox.add(partial.toString());
        partial.setLength(0);
      }
      demand(webSocket);
      return null;
    }

    private synchronized void demand(WebSocket webSocket) {
      if (reading.get()) {
        webSocket.request(1);
      } else {
        owed = true;
      }
    }

    synchronized void resume() {
      reading.set(true);
      if (owed) {
        owed = false;
        ws.request(1);
      }
    }

    JsonNode next(long timeoutMs) throws InterruptedException {
      String text = inbox.poll(timeoutMs, TimeUnit.MILLISECONDS);
      assertThat(text).as("a message within %d ms", timeoutMs).isNotNull();
      return WireCodec.parse(text);
    }
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  @Test
  void aClientThatStopsReadingCostsBoundedMemoryAndTheSessionRecovers(XDisplay x, @TempDir Path dir)
      throws Exception {
    Path noise = dir.resolve("noise.png");
    BufferedImage img = new BufferedImage(380, 280, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(7);
    for (int py = 0; py < img.getHeight(); py++) {
      for (int px = 0; px < img.getWidth(); px++) {
        img.setRGB(px, py, random.nextInt(0x1000000));
      }
    }
    ImageIO.write(img, "png", noise.toFile());
    String title = "noise-" + ProcessHandle.current().pid();
    ProcessBuilder show = new ProcessBuilder("display", "-title", title, "-geometry", "+0+0", noise.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("display.log").toFile());
    show.environment().put("DISPLAY", x.name());
    Process viewer = show.start();
    viewer.getOutputStream().close();
    try (AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(),
        x.name(), SessionLimits.defaults(), "test"));
        TestWindows windows = new TestWindows(x.name())) {
      long id = windowNamed(x.name(), title);
      AtomicBoolean moving = new AtomicBoolean(true);
      Thread mover = new Thread(() -> {
        for (int i = 0; moving.get(); i++) {
          windows.move(id, i % 2, 0);
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "mover");
      mover.start();
      try {
        stallAndRecover(runtime);
      } finally {
        moving.set(false);
        mover.interrupt();
        mover.join(2000);
      }
    } finally {
      viewer.destroy();
      viewer.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private static void stallAndRecover(AciRuntime runtime) throws Exception {
    Stallable client = new Stallable();
    client.ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
        .buildAsync(URI.create("ws://127.0.0.1:" + runtime.port() + "/"), client).join();
    client.ws.sendText("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"slow\",\"version\":\"1\"},\"token\":\""
        + TOKEN + "\"}", true).join();
    assertThat(client.next(5000).path("type").asText()).isEqualTo("welcome");
    client.ws.sendText("{\"type\":\"action\",\"call_id\":\"cast\",\"action\":{\"verb\":\"start_screencast\","
        + "\"fps\":30,\"format\":\"png\"}}", true).join();
    assertThat(client.next(5000).path("ok").asBoolean()).isTrue();
    long lastSeq = -1;
    int frameBytes = 0;
    for (int i = 0; i < 5; i++) {
      JsonNode f = client.next(5000);
      lastSeq = f.path("seq").asLong();
      frameBytes = Math.max(frameBytes, f.at("/image/ref").asText().length());
    }
    assertThat(frameBytes).as("frames big enough that an unbounded queue would show").isGreaterThan(200_000);

    long before = usedHeapAfterGc();
    client.reading.set(false);
    client.inbox.clear();
    long maxQueued = 0;
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STALL_MS);
    while (System.nanoTime() < end) {
      maxQueued = Math.max(maxQueued, runtime.queuedOutboundBytes());
      Thread.sleep(50);
    }
    long after = usedHeapAfterGc();
    // the request goes out while the client still does not read; its answer waits behind the frames
    client.ws.sendText("{\"type\":\"ping\",\"t\":42}", true).join();

    assertThat(maxQueued).as("unwritten bytes held by the runtime for this client (one frame %d)", frameBytes)
        .isLessThanOrEqualTo(Framing.FRAME_QUEUE_CAP_BYTES);
    assertThat(after - before).as("heap growth over a 10 s stall at 30 fps (~%d MB of frames produced)",
        STALL_MS / 1000 * 30 * frameBytes >> 20).isLessThan(48L << 20);

    client.resume();
    List<Long> seqs = new ArrayList<>();
    JsonNode m;
    while (!(m = client.next(15_000)).path("type").asText().equals("pong")) {
      assertThat(m.path("type").asText()).isEqualTo("observation");
      seqs.add(m.path("seq").asLong());
    }
    assertThat(m.path("t").asDouble()).isEqualTo(42.0);
    assertThat(seqs.size()).as("frames that were queued during the stall").isLessThan(60);
    JsonNode resumed = client.next(5000);
    assertThat(resumed.path("type").asText()).isEqualTo("observation");
    seqs.add(resumed.path("seq").asLong());
    long gap = seqs.get(0) - lastSeq - 1;
    for (int i = 1; i < seqs.size(); i++) {
      assertThat(seqs.get(i)).isGreaterThan(seqs.get(i - 1));
      gap += seqs.get(i) - seqs.get(i - 1) - 1;
    }
    // how many frames the runtime builds in 10 s depends on how fast this machine encodes noise;
    // whatever the rate, more of them must have been dropped than were queued for the client
    assertThat(gap).as("seqs the client never got (frames dropped instead of queued; %d were queued)", seqs.size())
        .isGreaterThan(Math.max(10, seqs.size()));
    client.ws.sendText("{\"type\":\"action\",\"call_id\":\"halt\",\"action\":{\"verb\":\"stop_screencast\"}}",
        true).join();
    while ((m = client.next(5000)).path("type").asText().equals("observation")) {
      // frames on the way before the stop
    }
    assertThat(m.path("call_id").asText()).isEqualTo("halt");
    client.ws.abort();
  }

  /** The id of the top-level window titled {@code title}, waiting for it to appear. */
  private static long windowNamed(String display, String title) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("xdotool", "search", "--sync", "--name", "^" + title + "$");
    pb.environment().put("DISPLAY", display);
    Process p = pb.redirectErrorStream(true).start();
    assertThat(p.waitFor(15, TimeUnit.SECONDS)).as("the viewer window appears").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(out).as("xdotool found %s", title).matches("[0-9]+(\\s+[0-9]+)*");
    return Long.parseLong(out.split("\\s+")[0]);
  }
}
