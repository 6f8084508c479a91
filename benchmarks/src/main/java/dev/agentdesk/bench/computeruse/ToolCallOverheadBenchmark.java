package dev.agentdesk.bench.computeruse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.ActionReply;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Scope;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.bench.aci.BenchDesktop;
import dev.agentdesk.computeruse.AnthropicComputerTool;
import dev.agentdesk.computeruse.DisplaySize;
import dev.agentdesk.computeruse.OpenAiComputerTool;
import dev.agentdesk.computeruse.ToolResult;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a computer-use tool call costs over the ACI round trip it makes: each adapter call beside the
 * SDK call it turns into, in the same run, on a real runtime on a real Xvfb (1280x800, the static
 * GTK desktop), the tool declared as 1024x640. The click lands on the bare root window, so the
 * screen never changes and the screenshot after it is the same frame every time.
 * Run: {@code ./bench computer-use}.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ToolCallOverheadBenchmark {
  private static final String TOKEN = "bench";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The levers the adapter uses for a 1024x640 declaration of a 1280x800 screen. */
  private static final ObserveSpec LEVERS = new ObserveSpec(Scope.SCREEN, ImageFormat.PNG, null, 1024);

  private BenchDesktop desktop;
  private AciRuntime runtime;
  private AciClient client;
  private AnthropicComputerTool anthropic;
  private AnthropicComputerTool anthropicNoShots;
  private OpenAiComputerTool openai;
  private JsonNode leftClick;
  private JsonNode screenshot;
  private JsonNode key;
  private JsonNode openaiClick;
  private Action sdkClick;
  private Action sdkClickObserve;
  private Action sdkKey;
  private String lastHash;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    desktop = new BenchDesktop(1280, 800);
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), desktop.display(),
        SessionLimits.defaults(), "bench"));
    client = AciClient.connect(URI.create("ws://127.0.0.1:" + runtime.port() + "/"),
        AciClientOptions.defaults().withToken(TOKEN).withCallTimeout(Duration.ofSeconds(30)));
    DisplaySize d = new DisplaySize(1024, 640);
    anthropic = AnthropicComputerTool.create(client, AnthropicComputerTool.Version.COMPUTER_20251124, d);
    anthropicNoShots = AnthropicComputerTool.create(client, AnthropicComputerTool.Version.COMPUTER_20251124, d,
        Duration.ZERO, false);
    openai = OpenAiComputerTool.create(client, d);
    // Model (1016, 632) on 1024x640 is screen (1270, 790): the bare root window.
    leftClick = JSON.readTree("{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"left_click\",\"coordinate\":[1016,632]}}");
    screenshot = JSON.readTree("{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"screenshot\"}}");
    key = JSON.readTree("{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"key\",\"text\":\"shift\"}}");
    openaiClick = JSON.readTree("{\"type\":\"computer_call\",\"call_id\":\"c\","
        + "\"action\":{\"type\":\"click\",\"button\":\"left\",\"x\":1016,\"y\":632}}");
    Target corner = new Target.PointPx(1270, 790);
    sdkClick = Action.click(corner);
    sdkClickObserve = sdkClick.toBuilder().observe(LEVERS).build();
    sdkKey = Action.key("shift");
    ObservationMsg first = ((ActionReply.Observed) client.act(Action.builder(Verb.SCREENSHOT).scope(Scope.SCREEN)
        .format(ImageFormat.PNG).maxLongEdge(1024).build())).observation();
    lastHash = first.frameHash();
    for (JsonNode call : List.of(leftClick, screenshot, key, openaiClick)) {
      ToolResult r = call == openaiClick ? openai.call(call) : anthropic.call(call);
      if (!r.ok()) {
        throw new IllegalStateException("warm-up call failed: " + r.error());
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
    runtime.close();
    desktop.close();
  }

  /** The SDK's click, no screenshot: the ACI round trip of a click. */
  @Benchmark
  public Object sdkClick() {
    return client.act(sdkClick);
  }

  /** Anthropic left_click with screenshots off: translation, mapping and the same click. */
  @Benchmark
  public Object anthropicClickNoScreenshot() {
    return anthropicNoShots.call(leftClick);
  }

  /** The SDK's click with observe-after-act at the adapter's levers. */
  @Benchmark
  public Object sdkClickObserve() {
    return client.act(sdkClickObserve);
  }

  /** Anthropic left_click: the click, its screenshot, the tool_result. */
  @Benchmark
  public Object anthropicClick() {
    return anthropic.call(leftClick);
  }

  /** OpenAI click: the click, its screenshot, the computer_call_output. */
  @Benchmark
  public Object openaiClick() {
    return openai.call(openaiClick);
  }

  /** The SDK's key with observe-after-act. */
  @Benchmark
  public Object sdkKeyObserve() {
    return client.act(sdkKey.toBuilder().observe(LEVERS).build());
  }

  /** Anthropic key (xdotool name translated): the press and its screenshot. */
  @Benchmark
  public Object anthropicKey() {
    return anthropic.call(key);
  }

  /** The SDK's screenshot offering the last frame hash (not_modified on a static screen). */
  @Benchmark
  public Object sdkScreenshotNotModified() {
    return client.act(Action.builder(Verb.SCREENSHOT).scope(Scope.SCREEN).format(ImageFormat.PNG).maxLongEdge(1024)
        .ifNoneMatch(lastHash).build());
  }

  /** Anthropic screenshot on a static screen: not_modified, the previous base64 reused. */
  @Benchmark
  public Object anthropicScreenshot() {
    return anthropic.call(screenshot);
  }
}
