package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The reference app's rendered-screen fixtures, read in place from ../shared. */
class CorpusScreensTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Path> choicePrompts() throws IOException {
    Path dir = SharedCorpus.require("corpus/terminal/choice_prompts");
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".txt")).sorted().toList().stream();
    }
  }

  static Stream<Path> negatives() throws IOException {
    Path dir = SharedCorpus.require("corpus/terminal/choice_prompts/negative");
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList().stream();
    }
  }

  private static ScreenView screen(Path txt) throws IOException {
    return ScreenView.ofLines(Files.readAllLines(txt, StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @MethodSource("choicePrompts")
  void eachChoiceScreenYieldsItsExpectedPrompt(Path txt) throws IOException {
    JsonNode expected = JSON.readTree(txt.resolveSibling(txt.getFileName().toString().replace(".txt", ".json")).toFile());
    ScreenView s = screen(txt);
    ParsedEvent.ChoicePrompt p = ChoicePromptDetector.detect(s, s.rowCount());
    assertThat(p).as(txt.getFileName().toString()).isNotNull();
    JsonNode actual = EventJson.toNode(p);
    assertThat(actual.get("type").asText()).isEqualTo(expected.get("type").asText());
    assertThat(p.title()).isEqualTo(expected.get("title").asText());
    assertThat(p.dismissKey()).isEqualTo(expected.get("dismiss_key").asText());
    assertThat(p.amendKey()).isEqualTo(expected.get("amend_key").asText());
    assertThat(p.options()).hasSize(expected.get("options").size());
    for (int i = 0; i < p.options().size(); i++) {
      JsonNode eo = expected.get("options").get(i);
      ParsedEvent.ChoiceOption o = p.options().get(i);
      assertThat(String.valueOf(o.index())).isEqualTo(eo.get("key").asText());
      assertThat(o.label()).isEqualTo(eo.get("label").asText());
      assertThat(o.highlighted()).isEqualTo(eo.get("highlighted").asBoolean());
      assertThat(o.destructive()).isEqualTo(eo.get("destructive").asBoolean());
      assertThat(o.hint()).isEqualTo(eo.has("hint") ? eo.get("hint").asText() : null);
    }
  }

  @ParameterizedTest
  @MethodSource("negatives")
  void negativeScreensYieldNoPrompt(Path txt) throws IOException {
    ScreenView s = screen(txt);
    assertThat(ChoicePromptDetector.detect(s, s.rowCount())).as(txt.getFileName().toString()).isNull();
  }

  @ParameterizedTest
  @MethodSource("negatives")
  void negativeScreensYieldNoEventsThroughTheWholeParser(Path txt) throws IOException {
    ScreenView s = screen(txt);
    OutputParser p = new OutputParser(Agent.CLAUDE, new ManualClock(0));
    List<ParsedEvent> events = p.onScreen(s, ParserFixtures.allRows(s));
    assertThat(events).noneMatch(e -> e instanceof ParsedEvent.ChoicePrompt || e instanceof ParsedEvent.Question);
  }

  @Test
  void renderedScreensReadAsTheStateTheirNamesSay() throws IOException {
    Path dir = SharedCorpus.require("corpus/terminal/rendered_screens");
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      String name = f.getFileName().toString();
      Agent agent = name.startsWith("claude") ? Agent.CLAUDE : Agent.CODEX;
      ScreenActivity expected = name.contains("completed") ? ScreenActivity.COMPLETED : ScreenActivity.WORKING;
      assertThat(name).matches(n -> n.contains("completed") || n.contains("working") || n.contains("stop-hook"));
      assertThat(ScreenActivity.read(agent, screen(f))).as(name).isEqualTo(expected);
    }
  }

  @Test
  void planPickerCaptureYieldsOneLowConfidenceQuestionAndGenericAttentionNone() throws IOException {
    List<ParsedEvent> picker = replay("corpus/terminal/agent_prompts/claude-plan-picker.raw", Agent.CLAUDE);
    assertThat(picker).filteredOn(ParsedEvent.Question.class::isInstance)
        .containsExactly(new ParsedEvent.Question("Claude is waiting for your input", false, 0));
    assertThat(replay("corpus/terminal/agent_prompts/claude-generic-attention.raw", Agent.CLAUDE)).isEmpty();
  }

  @Test
  void ghRunWatchOnTheAlternateScreenRaisesNoAlarms() throws IOException {
    List<ParsedEvent> events = replay("corpus/terminal/alt_screen/gh-run-watch.raw", Agent.NONE);
    assertThat(events).noneMatch(e -> e instanceof ParsedEvent.RateLimit || e instanceof ParsedEvent.ApiError
        || e instanceof ParsedEvent.Question || e instanceof ParsedEvent.ChoicePrompt);
  }

  private static List<ParsedEvent> replay(String corpusPath, Agent agent) throws IOException {
    try (var reader = dev.agentdesk.terminal.tcap.TcapReader.open(SharedCorpus.require(corpusPath))) {
      return CaptureReplay.replayAll(reader, agent, 128, 41, 15_000).stream().map(CaptureReplay.TimedEvent::event).toList();
    }
  }

  @Test
  void claudeChromeIsCutBelowTheLastChatContent() throws IOException {
    ScreenView s = screen(SharedCorpus.require("corpus/terminal/rendered_screens/claude-completed.txt"));
    int end = ChromeCutoff.contentEnd(Agent.CLAUDE, s);
    assertThat(s.row(end)).startsWith("────");
    assertThat(s.row(end + 1)).startsWith("❯");
    assertThat(s.rows().subList(0, end)).anyMatch(r -> r.contains("Sautéed for 1m 25s"));
  }

  @Test
  void codexChromeStartsAtTheLowestComposerNotAtHistory() throws IOException {
    ScreenView s = screen(SharedCorpus.require("corpus/terminal/rendered_screens/codex-background-working.txt"));
    int end = ChromeCutoff.contentEnd(Agent.CODEX, s);
    assertThat(s.row(end)).startsWith("» Use /skills");
    assertThat(s.row(0)).startsWith("› historical");
  }

  @Test
  void stopHookScreenReportsTheActiveStatusLine() throws IOException {
    ScreenView s = screen(SharedCorpus.require("corpus/terminal/rendered_screens/claude-blocking-stop-hook.txt"));
    OutputParser p = new OutputParser(Agent.CLAUDE, new ManualClock(0));
    List<ParsedEvent> events = p.onScreen(s, ParserFixtures.allRows(s));
    assertThat(events).contains(new ParsedEvent.StatusLine("Nucleating", "✽ Nucleating… (3m 50s · ↓ 7.8k tokens)",
        "3m 50s", "↓ 7.8k tokens"));
  }
}
