package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.atspi.internal.TreeText;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Element roles in the form the peer contract fixtures (../shared/corpus/aci) use: AT-SPI's own
 * names ({@code push button}). Each fixture observation is rebuilt as engine elements and sent
 * through {@link AtspiWire}: the roles come out unchanged and schema-valid, while
 * {@code tree_text} lines use the one-token form. {@code WidgetFactoryTest} checks that a live
 * walk produces these very names.
 */
class PeerRoleNamesTest {
  /** The valid {@code observation} messages of the peer fixtures that carry elements. */
  static List<JsonNode> peerObservations() throws IOException {
    JsonNode all = WireCodec.parse(Files.readString(
        SharedCorpus.require("corpus/aci/shinken-contract-fixtures.json")));
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode f : all) {
      JsonNode m = f.path("message");
      if (f.path("expect").asText().equals("valid") && m.path("type").asText().equals("observation")
          && m.path("elements").size() > 0) {
        out.add(m);
      }
    }
    return out;
  }

  /** Every element role the peer fixtures use, in order of first appearance. */
  static Set<String> peerRoles() throws IOException {
    Set<String> roles = new LinkedHashSet<>();
    for (JsonNode m : peerObservations()) {
      m.path("elements").forEach(e -> roles.add(e.path("role").asText()));
    }
    return roles;
  }

  @Test
  void theFixturesNameRolesAsAtspiDoes() throws IOException {
    // Guard against a changed corpus silently leaving nothing to compare.
    assertThat(peerRoles()).contains("push button", "frame");
  }

  @Test
  void fixtureElementsRebuiltByTheEngineGoOnTheWireWithTheSameRoles() throws IOException {
    int compared = 0;
    for (JsonNode m : peerObservations()) {
      List<AtspiElement> elements = new ArrayList<>();
      for (JsonNode e : m.path("elements")) {
        elements.add(element(e));
      }
      Observation ob = new Observation(Observation.TreeForm.FULL, m.path("tree_text").asText(),
          m.path("revision").asLong(1), OptionalLong.empty(),
          Optional.ofNullable(m.path("focus").textValue()), 1.0, elements, List.of());
      ObservationMsg msg = AtspiWire.observation("peer", ob);
      JsonNode json = WireCodec.parse(WireCodec.encode(msg));
      assertThat(WireContract.bundled().validate(json)).as(json.toString()).isEmpty();
      for (int i = 0; i < elements.size(); i++) {
        String peerRole = m.path("elements").get(i).path("role").asText();
        assertThat(json.path("elements").get(i).path("role").asText()).isEqualTo(peerRole);
        assertThat(TreeText.line(elements.get(i)))
            .startsWith(elements.get(i).ref() + " " + peerRole.replace(' ', '_'));
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(2);
  }

  private static AtspiElement element(JsonNode e) {
    List<String> states = new ArrayList<>();
    e.path("states").forEach(s -> states.add(s.asText()));
    List<String> actions = new ArrayList<>();
    e.path("actions").forEach(a -> actions.add(a.asText()));
    JsonNode b = e.path("bbox");
    return new AtspiElement(e.path("ref").asText(), Optional.empty(), 1, e.path("role").asText(),
        e.path("name").asText(""), e.path("description").asText(""),
        Optional.ofNullable(e.path("value").textValue()), states, actions,
        e.path("focused").asBoolean(false),
        new Bbox(b.get(0).asInt(), b.get(1).asInt(), b.get(2).asInt(), b.get(3).asInt()),
        ":1.1", "/org/a11y/atspi/accessible/1");
  }
}
