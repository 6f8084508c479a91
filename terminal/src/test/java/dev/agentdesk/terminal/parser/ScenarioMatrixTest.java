package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.terminal.tcap.TcapReader;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scenario matrix is the coverage contract: unique ids, every agent covered, every fixture
 * present, every SET with a CLEAR path — and each capture scenario replays end to end to exactly
 * its expected event sequence.
 */
class ScenarioMatrixTest {
  private static final String DIR = "/dev/agentdesk/terminal/parser/scenarios/";
  private static final Set<String> EVIDENCE = Set.of("recorded-capture", "scripted-capture", "synthetic");

  static JsonNode matrix() throws IOException {
    try (InputStream in = ScenarioMatrixTest.class.getResourceAsStream(DIR + "scenario-matrix.json")) {
      assertThat(in).as("scenario-matrix.json on the test classpath").isNotNull();
      return new ObjectMapper().readTree(in);
    }
  }

  static Stream<JsonNode> captureScenarios() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    matrix().get("scenarios").forEach(s -> {
      if (!s.get("evidence").asText().equals("synthetic")) {
        out.add(s);
      }
    });
    return out.stream();
  }

  @Test
  void idsAreUniqueAndEvidenceKindsKnown() throws IOException {
    Set<String> ids = new HashSet<>();
    for (JsonNode s : matrix().get("scenarios")) {
      assertThat(ids.add(s.get("id").asText())).as("duplicate id " + s.get("id")).isTrue();
      assertThat(EVIDENCE).contains(s.get("evidence").asText());
    }
    assertThat(ids).hasSizeGreaterThanOrEqualTo(10);
  }

  @Test
  void everyAgentIsCovered() throws IOException {
    Set<String> agents = new HashSet<>();
    matrix().get("scenarios").forEach(s -> agents.add(s.get("agent").asText()));
    for (Agent a : Agent.values()) {
      if (a != Agent.NONE) {
        assertThat(agents).as("agent " + a.cliName()).contains(a.cliName());
      }
    }
  }

  @Test
  void everyFixtureExists() throws IOException, ClassNotFoundException {
    for (JsonNode s : matrix().get("scenarios")) {
      String fixture = s.get("fixture").asText();
      if (fixture.startsWith("shared:")) {
        assertThat(SharedCorpus.require(fixture.substring("shared:".length()))).isRegularFile();
      } else if (fixture.startsWith("test:")) {
        Class.forName(fixture.substring("test:".length()));
      } else {
        assertThat(ScenarioMatrixTest.class.getResource(DIR + fixture)).as(fixture).isNotNull();
      }
    }
  }

  @Test
  void everySetDeclaresAClearPathAndNamesARealEvent() throws IOException {
    Set<String> types = new HashSet<>();
    for (JsonNode s : matrix().get("scenarios")) {
      for (JsonNode set : s.get("set")) {
        String event = set.get("event").asText();
        types.add(event);
        assertThat(set.get("clear")).as(s.get("id") + " SET " + event).isNotEmpty();
      }
    }
    assertThat(types).contains("question", "choice-prompt", "rate-limit", "api-error", "status-line", "suggest",
        "usage-limit", "usage-exhausted", "progress", "pr-url", "shell-state");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captureScenarios")
  void captureReplaysToItsExpectedEventSequence(JsonNode scenario) throws IOException {
    List<String> actual = replay(scenario);
    List<String> expected = new ArrayList<>();
    scenario.get("expect").forEach(e -> expected.add(e.asText()));
    assertThat(actual).as(scenario.get("id").asText()).isEqualTo(expected);
  }

  /** The replayed events, each as {@code type} or {@code type key=value…} for the keys the matrix checks. */
  static List<String> replay(JsonNode scenario) throws IOException {
    String fixture = scenario.get("fixture").asText();
    byte[] bytes;
    if (fixture.startsWith("shared:")) {
      bytes = Files.readAllBytes(SharedCorpus.require(fixture.substring("shared:".length())));
    } else {
      try (InputStream in = ScenarioMatrixTest.class.getResourceAsStream(DIR + fixture)) {
        bytes = ScenarioScript.toTcap(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
      }
    }
    Path tmp = Files.createTempFile("scenario", ".tcap");
    try {
      Files.write(tmp, bytes);
      List<String> out = new ArrayList<>();
      try (TcapReader r = TcapReader.open(new ByteArrayInputStream(Files.readAllBytes(tmp)))) {
        Agent agent = Agent.fromCliName(scenario.get("agent").asText().equals("cross-agent") ? "none" : scenario.get("agent").asText());
        int cols = scenario.path("cols").asInt(128);
        for (CaptureReplay.TimedEvent t : CaptureReplay.replayAll(r, agent, cols, 41, 15_000)) {
          out.add(describe(t.event(), scenario.path("fields")));
        }
      }
      return out;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static String describe(ParsedEvent e, JsonNode fields) {
    JsonNode json = EventJson.toNode(e);
    StringBuilder sb = new StringBuilder(e.type());
    JsonNode keys = fields.path(e.type());
    for (JsonNode k : keys) {
      sb.append(' ').append(k.asText()).append('=').append(json.get(k.asText()));
    }
    return sb.toString();
  }
}
