package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.CliRun;
import dev.agentdesk.app.serve.Json;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripted computer-use "models" drive a real sandbox through {@code agentdesk aci tool-call}, one
 * call per invocation as an API loop sends them: each screenshot comes back at the display size the
 * tool was declared with (smaller than the 1280x800 sandbox screen), and each click is given in that
 * declared space. The dialog is a zenity form with two entries, the first focused: the text lands in
 * the second only if the scaled click hit it, and zenity prints {@code |TEXT} (first|second) only
 * when the scaled click on OK lands too. One sandbox serves the class; its stop ends every process of it.
 */
class ComputerUseLoopTest {
  private static final int SCREEN_W = 1280;
  private static final int SCREEN_H = 800;
  /** How long a form may stay open; a failed test's form is gone before the next test opens its own. */
  private static final long FORM_TIMEOUT_MS = 20_000;

  @TempDir
  static Path dir;

  private static SandboxCli cli;
  private static JsonNode sb;
  private static String namespace;

  @BeforeAll
  static void startSandbox() throws Exception {
    cli = new SandboxCli(dir);
    sb = cli.start("--no-register", "--screen", SCREEN_W + "x" + SCREEN_H);
    namespace = SandboxCli.pidNamespace(sb.path("pid").asLong());
  }

  @AfterAll
  static void stopSandbox() throws Exception {
    try {
      SandboxCli.Result stop = cli.run("sandbox", "stop", sb.path("id").asText());
      assertThat(stop.exit()).as(stop.err()).isZero();
      assertThat(SandboxCli.processesIn(namespace)).as("processes left in the sandbox's PID namespace").isEmpty();
      assertThat(SandboxCli.alive(sb.path("pid").asLong())).as("the sandbox's supervisor").isEmpty();
    } finally {
      cli.close();
    }
  }

  @Test
  void anthropicComputerToolLoop() throws Exception {
    Dialog d = Dialog.open("Anthropic loop");
    Declared space = new Declared(1024, 640);
    String[] tool = {"--format", "anthropic", "--display", space.arg()};

    JsonNode shot = call(tool, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"screenshot\"}}");
    assertThat(shot.path("tool_use_id").asText()).isEqualTo("toolu_1");
    assertThat(size(anthropicImage(shot))).isEqualTo(space.wh());

    int[] entry = space.of(d.secondEntry);
    JsonNode click = call(tool, "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"computer\",\"input\":"
        + "{\"action\":\"left_click\",\"coordinate\":[" + entry[0] + "," + entry[1] + "]}}");
    assertThat(size(anthropicImage(click))).isEqualTo(space.wh());
    call(tool, "{\"type\":\"tool_use\",\"id\":\"toolu_3\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"type\",\"text\":\"from-claudeX\"}}");
    call(tool, "{\"type\":\"tool_use\",\"id\":\"toolu_4\",\"name\":\"computer\","
        + "\"input\":{\"action\":\"key\",\"text\":\"BackSpace\"}}");
    int[] ok = space.of(d.ok);
    JsonNode last = call(tool, "{\"type\":\"tool_use\",\"id\":\"toolu_5\",\"name\":\"computer\",\"input\":"
        + "{\"action\":\"left_click\",\"coordinate\":[" + ok[0] + "," + ok[1] + "]}}");
    assertThat(last.path("is_error").asBoolean()).isFalse();

    assertThat(d.printed()).isEqualTo("|from-claude\n");
  }

  @Test
  void openAiComputerUseLoop() throws Exception {
    Dialog d = Dialog.open("OpenAI loop");
    Declared space = new Declared(960, 600);
    String[] tool = {"--format", "openai", "--display", space.arg()};

    JsonNode shot = call(tool,
        "{\"type\":\"computer_call\",\"call_id\":\"call_1\",\"action\":{\"type\":\"screenshot\"}}");
    assertThat(shot.path("type").asText()).isEqualTo("computer_call_output");
    assertThat(shot.path("call_id").asText()).isEqualTo("call_1");
    assertThat(size(openAiImage(shot))).isEqualTo(space.wh());

    int[] entry = space.of(d.secondEntry);
    JsonNode click = call(tool, "{\"type\":\"computer_call\",\"call_id\":\"call_2\",\"action\":{\"type\":\"click\","
        + "\"button\":\"left\",\"x\":" + entry[0] + ",\"y\":" + entry[1] + "}}");
    assertThat(size(openAiImage(click))).isEqualTo(space.wh());
    call(tool, "{\"type\":\"computer_call\",\"call_id\":\"call_3\",\"action\":{\"type\":\"type\","
        + "\"text\":\"from-openaiX\"}}");
    call(tool, "{\"type\":\"computer_call\",\"call_id\":\"call_4\",\"action\":{\"type\":\"keypress\","
        + "\"keys\":[\"BACKSPACE\"]}}");
    int[] ok = space.of(d.ok);
    call(tool, "{\"type\":\"computer_call\",\"call_id\":\"call_5\",\"action\":{\"type\":\"click\","
        + "\"button\":\"left\",\"x\":" + ok[0] + ",\"y\":" + ok[1] + "}}");

    assertThat(d.printed()).isEqualTo("|from-openai\n");
  }

  /** The tool's display size; a screen point (from the a11y tree) as the model would give it there. */
  record Declared(int w, int h) {
    String arg() {
      return w + "x" + h;
    }

    List<Integer> wh() {
      return List.of(w, h);
    }

    int[] of(int[] screen) {
      return new int[] {(int) Math.round(screen[0] * (double) w / SCREEN_W),
          (int) Math.round(screen[1] * (double) h / SCREEN_H)};
    }
  }

  /**
   * A zenity form started through ACI exec (which returns once zenity exits, with what it printed),
   * and the screen centres of its second entry and its OK button, read from the observation.
   */
  static final class Dialog {
    final CompletableFuture<CliRun> exit;
    int[] secondEntry;
    int[] ok;

    private Dialog(CompletableFuture<CliRun> exit) {
      this.exit = exit;
    }

    static Dialog open(String title) throws Exception {
      Dialog d = new Dialog(CompletableFuture.supplyAsync(() -> SandboxFocusTest.aci(sb, "exec", "--timeout-ms",
          Long.toString(FORM_TIMEOUT_MS), "--", "zenity", "--forms", "--title", title, "--text", "Who?",
          "--add-entry", "First", "--add-entry", "Second")));
      JsonNode seen = SandboxFocusTest.awaitObserve(sb, o -> o.path("tree_text").asText()
          .contains("window: \"" + title + "\"") && texts(o).size() == 2 && button(o, "OK") != null);
      List<JsonNode> entries = texts(seen);
      d.secondEntry = centre(entries.get(1));
      d.ok = centre(button(seen, "OK"));
      return d;
    }

    String printed() throws Exception {
      // exec kills the form at FORM_TIMEOUT_MS, so this wait ends with zenity's own exit status
      CliRun r = exit.get(FORM_TIMEOUT_MS + 10_000, TimeUnit.MILLISECONDS);
      assertThat(r.exit()).as("zenity's exit status (124: killed, the form was never closed: the click on OK "
          + "missed); it printed %s, stderr %s", r.out(), r.err()).isZero();
      return r.out();
    }

    private static List<JsonNode> texts(JsonNode o) {
      List<JsonNode> t = new ArrayList<>();
      for (JsonNode e : o.path("elements")) {
        if (e.path("role").asText().equals("text")) {
          t.add(e);
        }
      }
      t.sort(Comparator.comparingInt(e -> e.path("bbox").get(1).asInt()));
      return t;
    }

    private static JsonNode button(JsonNode o, String name) {
      for (JsonNode e : o.path("elements")) {
        if (e.path("role").asText().replace(' ', '_').equals("push_button") && e.path("name").asText().equals(name)) {
          return e;
        }
      }
      return null;
    }

    private static int[] centre(JsonNode e) {
      JsonNode b = e.path("bbox"); // [x, y, w, h] in screen pixels
      return new int[] {b.get(0).asInt() + b.get(2).asInt() / 2, b.get(1).asInt() + b.get(3).asInt() / 2};
    }
  }

  /** One call through the real {@code agentdesk aci tool-call}; its one result line. */
  private static JsonNode call(String[] tool, String callJson) throws Exception {
    Path in = Files.createTempFile(dir, "call", ".json");
    Files.writeString(in, callJson);
    List<String> args = new ArrayList<>(List.of("aci", "--url", sb.path("url").asText(), "--token-file",
        sb.path("token_file").asText(), "tool-call", "--input", in.toString()));
    args.addAll(List.of(tool));
    CliRun r = CliRun.run(args.toArray(String[]::new));
    assertThat(r.exit()).as("tool-call %s: %s", callJson, r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).as(r.out()).hasSize(1);
    return Json.MAPPER.readTree(lines.get(0));
  }

  private static String anthropicImage(JsonNode result) {
    for (JsonNode c : result.path("content")) {
      if (c.path("type").asText().equals("image")) {
        return c.path("source").path("data").asText();
      }
    }
    throw new AssertionError("no image in " + result);
  }

  private static String openAiImage(JsonNode output) {
    String url = output.path("output").path("image_url").asText();
    assertThat(url).startsWith("data:image/");
    return url.substring(url.indexOf(',') + 1);
  }

  private static List<Integer> size(String base64) throws Exception {
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
    assertThat(img).as("a decodable image").isNotNull();
    return List.of(img.getWidth(), img.getHeight());
  }
}
