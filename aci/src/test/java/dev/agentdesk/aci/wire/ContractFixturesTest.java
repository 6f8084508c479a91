package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.WireException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The project's own contract examples (src/test/resources/.../contract/*.json): for every message
 * type a valid example, and for every required field and every allOf rule of the schema a
 * negative one. The validator and the Java decoder must agree on each — and on the decode reason
 * where the fixture names one. A coverage test derives the required fields and allOf rules from
 * the schema itself, so a rule added to the schema without a fixture fails the build.
 */
class ContractFixturesTest {
  record Fixture(ContractCase c, List<String> covers, String decoderReason) {
    @Override
    public String toString() {
      return c.toString();
    }
  }

  static List<Fixture> fixtures() throws IOException, URISyntaxException {
    Path dir = Path.of(ContractFixturesTest.class.getResource("contract").toURI());
    List<Fixture> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        JsonNode entries = WireCodec.parse(Files.readString(file, StandardCharsets.UTF_8));
        String base = file.getFileName().toString().replace(".json", "");
        for (int i = 0; i < entries.size(); i++) {
          JsonNode e = entries.get(i);
          List<String> covers = new ArrayList<>();
          e.path("covers").forEach(n -> covers.add(n.asText()));
          out.add(new Fixture(ContractCase.of(base + "#" + i, e), covers,
              e.has("decoder_reason") ? e.get("decoder_reason").asText() : null));
        }
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void validatorAgrees(Fixture f) {
    List<WireContract.Violation> v = WireContract.bundled().validate(f.c().validateAgainst(), f.c().message());
    if (f.c().valid()) {
      assertThat(v).isEmpty();
    } else {
      assertThat(v).isNotEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void javaDecoderAgrees(Fixture f) {
    if (f.c().valid()) {
      Object decoded = f.c().decode();
      JsonNode again = ContractCase.encode(decoded);
      assertThat(WireContract.bundled().validate(f.c().validateAgainst(), again)).isEmpty();
      assertThat(new ContractCase("re-encoded", true, f.c().validateAgainst(), "", again).decode()).isEqualTo(decoded);
    } else {
      assertThatThrownBy(() -> f.c().decode())
          .isInstanceOfSatisfying(WireException.class, e -> {
            if (f.decoderReason() != null) {
              assertThat(e.reason().name()).as(e.getMessage()).isEqualTo(f.decoderReason());
            }
          });
    }
  }

  @Test
  void negativeFixturesCoverEveryRequiredFieldAndEveryAllOfRule() throws Exception {
    JsonNode schema = WireCodec.parse(new String(WireContract.schemaBytes(), StandardCharsets.UTF_8));
    Set<String> rules = new TreeSet<>();
    collect(schema, "", rules);
    assertThat(rules).as("rules found in the schema").hasSizeGreaterThan(100)
        .contains("/$defs/Action/allOf/15", "/$defs/ObservationMsg/allOf/3", "/$defs/BinaryFrameHeader/allOf/2");

    Set<String> covered = new TreeSet<>();
    for (Fixture f : fixtures()) {
      if (!f.c().valid()) {
        covered.addAll(f.covers());
      } else {
        assertThat(f.covers()).as("a valid fixture covers no rule: " + f).isEmpty();
      }
    }
    assertThat(covered).as("every covers key names a rule of the schema").isSubsetOf(rules);
    assertThat(rules).as("schema rules without a negative fixture").isSubsetOf(covered);
  }

  @Test
  void everyMessageTypeAndStandaloneDefinitionHasAValidFixture() throws Exception {
    Set<String> validTypes = new TreeSet<>();
    Set<String> validDefs = new TreeSet<>();
    for (Fixture f : fixtures()) {
      if (f.c().valid()) {
        if (f.c().validateAgainst().equals("#")) {
          validTypes.add(f.c().message().path("type").asText());
        } else {
          validDefs.add(f.c().validateAgainst());
        }
      }
    }
    assertThat(validTypes).containsExactlyInAnyOrder("hello", "welcome", "ping", "pong", "query", "result",
        "action", "ack", "observation", "exec_output", "exec_exit");
    assertThat(validDefs).contains("#/$defs/Action", "#/$defs/ActionBatch", "#/$defs/ExecResult",
        "#/$defs/BinaryFrameHeader", "#/$defs/BinaryExecOutputHeader", "#/$defs/Target", "#/$defs/Element",
        "#/$defs/CoordinateSpace");
  }

  /**
   * Every {@code required} field (as {@code <schema pointer>/required/<field>}) and every
   * {@code allOf} rule (as {@code <schema pointer>/allOf/<i>}) of object schemas, descending
   * through properties, items and oneOf branches but not into the rules themselves.
   */
  private static void collect(JsonNode node, String pointer, Set<String> out) {
    if (!node.isObject()) {
      return;
    }
    node.path("required").forEach(f -> out.add(pointer + "/required/" + f.asText()));
    for (int i = 0; i < node.path("allOf").size(); i++) {
      out.add(pointer + "/allOf/" + i);
    }
    for (String container : List.of("properties", "$defs")) {
      Iterator<Map.Entry<String, JsonNode>> it = node.path(container).properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        collect(e.getValue(), pointer + "/" + container + "/" + e.getKey(), out);
      }
    }
    collect(node.path("items"), pointer + "/items", out);
    for (int i = 0; i < node.path("oneOf").size(); i++) {
      collect(node.path("oneOf").get(i), pointer + "/oneOf/" + i, out);
    }
  }
}
