package dev.agentdesk.bench.aciwire;

import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ActionMsg;
import dev.agentdesk.aci.wire.Bbox;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.Element;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationImage;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.PointerPosition;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.TreeForm;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of the wire layer per message: JSON decode/encode of a click action, of a 256 KiB
 * screenshot observation (base64 in JSON) and of a 100-element structured observation; binary
 * frame encode/decode of the same screenshot; and a full schema validation of the action, which
 * is what the debug flag adds to every outgoing message. Run: {@code ./bench aci-wire}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WireCodecBenchmark {
  static final int IMAGE_BYTES = 256 * 1024;

  private String actionJson;
  private String screenshotJson;
  private String treeJson;
  private AciMessage action;
  private ObservationMsg screenshot;
  private ObservationMsg tree;
  private byte[] screenshotFrame;
  private com.fasterxml.jackson.databind.JsonNode actionNode;

  @Setup
  public void setUp() {
    action = new ActionMsg("c-42", Action.click(new Target.PointPx(640, 400)));
    byte[] image = new byte[IMAGE_BYTES];
    new Random(7).nextBytes(image);
    screenshot = ObservationMsg.builder("obs-c-42").cause("c-42")
        .image(new ObservationImage(Base64.getEncoder().encodeToString(image), 1280, 800, null, ImageFormat.PNG))
        .frameHash("0123456789abcdef0123456789abcdef").pointer(new PointerPosition(640, 400)).build();
    List<Element> elements = new ArrayList<>();
    StringBuilder text = new StringBuilder("app: bench | window: \"Bench\" | revision: 1\n");
    for (int i = 1; i <= 100; i++) {
      elements.add(new Element("e" + i, i % 3 == 0 ? "push_button" : "label", "Item " + i, null, null,
          List.of("enabled", "visible"), i % 3 == 0 ? List.of("Click") : null, null,
          new Bbox(10, 20.0 * i, 120, 18), null, null));
      text.append("  e").append(i).append(" label \"Item ").append(i).append("\"\n");
    }
    tree = ObservationMsg.builder("obs-c-43").cause("c-43").tree(TreeForm.FULL).treeText(text.toString())
        .revision(1L).nodeCount(100L).elements(elements).build();
    actionJson = WireCodec.encode(action);
    screenshotJson = WireCodec.encode(screenshot);
    treeJson = WireCodec.encode(tree);
    screenshotFrame = BinaryFrames.encode(BinaryFrames.fromObservation(screenshot));
    actionNode = WireCodec.parse(actionJson);
    WireContract.bundled().validate(actionNode);
  }

  @Benchmark
  public AciMessage decodeAction() {
    return WireCodec.decode(actionJson);
  }

  @Benchmark
  public String encodeAction() {
    return WireCodec.encode(action);
  }

  @Benchmark
  public AciMessage decodeScreenshotJson() {
    return WireCodec.decode(screenshotJson);
  }

  @Benchmark
  public String encodeScreenshotJson() {
    return WireCodec.encode(screenshot);
  }

  @Benchmark
  public BinaryFrame decodeScreenshotFrame() {
    return BinaryFrames.decode(screenshotFrame);
  }

  @Benchmark
  public byte[] encodeScreenshotFrame() {
    return BinaryFrames.encode(BinaryFrames.fromObservation(screenshot));
  }

  @Benchmark
  public AciMessage decodeTree100() {
    return WireCodec.decode(treeJson);
  }

  @Benchmark
  public String encodeTree100() {
    return WireCodec.encode(tree);
  }

  @Benchmark
  public Object validateAction() {
    return WireContract.bundled().validate(actionNode);
  }
}
