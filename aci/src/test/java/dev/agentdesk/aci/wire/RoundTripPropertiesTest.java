package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.statistics.Statistics;

/**
 * encode∘decode is the identity, for generated messages of every type and for the standalone
 * definitions; and every generated value is one the schema accepts (so the generators are honest
 * and the encoder never writes what the contract forbids).
 */
class RoundTripPropertiesTest {
  private static void schemaAccepts(String pointer, String json) {
    assertThat(WireContract.bundled().validate(pointer, json)).as(json).isEmpty();
  }

  @Provide
  Arbitrary<AciMessage> messages() {
    return WireArbitraries.messages();
  }

  @Property(tries = 800, edgeCases = EdgeCasesMode.MIXIN)
  void messagesRoundTrip(@ForAll("messages") AciMessage message) {
    Statistics.collect(message.type());
    assertRoundTrips(message);
  }

  /**
   * Every one of the eleven message types exercised, by construction: 20 of each type are drawn
   * (a coverage count over random draws could miss for an unlucky seed and then fail every run).
   */
  @Example
  void everyMessageTypeRoundTrips() {
    for (String type : List.of("hello", "welcome", "ping", "pong", "query", "result", "action", "ack",
        "observation", "exec_output", "exec_exit")) {
      List<AciMessage> drawn = WireArbitraries.messages().filter(m -> m.type().equals(type)).sampleStream().limit(20)
          .toList();
      assertThat(drawn).as(type).hasSize(20);
      drawn.forEach(RoundTripPropertiesTest::assertRoundTrips);
    }
  }

  private static void assertRoundTrips(AciMessage message) {
    String json = WireCodec.encode(message);
    schemaAccepts("#", json);
    assertThat(WireCodec.decode(json)).isEqualTo(message);
    // And the text is stable: encoding the decoded message gives the same bytes.
    assertThat(WireCodec.encode(WireCodec.decode(json))).isEqualTo(json);
  }

  @Provide
  Arbitrary<Action> actions() {
    return WireArbitraries.actions();
  }

  @Property(tries = 600, edgeCases = EdgeCasesMode.MIXIN)
  void actionsRoundTrip(@ForAll("actions") Action action) {
    String json = WireCodec.encode(action);
    schemaAccepts("#/$defs/Action", json);
    assertThat(WireCodec.decodeAs(Action.class, json)).isEqualTo(action);
  }

  /**
   * Every verb, by construction rather than by chance: a coverage check over random draws ("each
   * verb at least 5 times in 600") fails for some seeds (seed 8591366620946461809 drew EXEC 4
   * times), and jqwik's database then replays that seed on every later run.
   */
  @Example
  void everyVerbRoundTripsAsAnAction() {
    for (Verb verb : Verb.values()) {
      List<Action> drawn = WireArbitraries.actionFor(verb).sampleStream().limit(10).toList();
      assertThat(drawn).as("%s actions", verb).hasSize(10).allSatisfy(a -> assertThat(a.verb()).isEqualTo(verb));
      for (Action action : drawn) {
        String json = WireCodec.encode(action);
        schemaAccepts("#/$defs/Action", json);
        assertThat(WireCodec.decodeAs(Action.class, json)).as(json).isEqualTo(action);
      }
    }
  }

  @Provide
  Arbitrary<ActionBatch> batches() {
    return Combinators.combine(WireArbitraries.ids().injectNull(0.5), Arbitraries.of(true, false).injectNull(0.5),
        WireArbitraries.actions().list().ofMinSize(1).ofMaxSize(4)).as(ActionBatch::new);
  }

  @Property(tries = 100)
  void actionBatchesRoundTrip(@ForAll("batches") ActionBatch batch) {
    String json = WireCodec.encode(batch);
    schemaAccepts("#/$defs/ActionBatch", json);
    assertThat(WireCodec.decodeAs(ActionBatch.class, json)).isEqualTo(batch);
  }

  @Provide
  Arbitrary<ExecResult> execResults() {
    return WireArbitraries.execResults();
  }

  @Property(tries = 100)
  void execResultsRoundTrip(@ForAll("execResults") ExecResult result) {
    String json = WireCodec.encode(result);
    schemaAccepts("#/$defs/ExecResult", json);
    assertThat(WireCodec.decodeAs(ExecResult.class, json)).isEqualTo(result);
  }

  @Provide
  Arbitrary<ObservationMsg> imageObservations() {
    return WireArbitraries.imageObservations();
  }

  @Property(tries = 200)
  void imageObservationsRoundTripThroughBinaryFrames(@ForAll("imageObservations") ObservationMsg observation) {
    BinaryFrame.Media media = BinaryFrames.fromObservation(observation);
    String header = WireCodec.encode(media.header());
    schemaAccepts("#/$defs/BinaryFrameHeader", header);
    assertThat(WireCodec.decodeAs(BinaryFrameHeader.class, header)).isEqualTo(media.header());
    BinaryFrame decoded = BinaryFrames.decode(BinaryFrames.encode(media));
    assertThat(decoded).isEqualTo(media);
    assertThat(BinaryFrames.toObservation((BinaryFrame.Media) decoded)).isEqualTo(observation);
  }

  @Provide
  Arbitrary<ExecOutputMsg> execOutputs() {
    return Combinators.combine(WireArbitraries.ids(), WireArbitraries.naturals(),
        Arbitraries.of(Channel.class), WireArbitraries.base64()).as(ExecOutputMsg::new);
  }

  @Property(tries = 100)
  void execOutputRoundTripsThroughBinaryFrames(@ForAll("execOutputs") ExecOutputMsg output) {
    BinaryFrame.ExecOutput frame = BinaryFrames.fromExecOutput(output);
    String header = WireCodec.encode(frame.header());
    schemaAccepts("#/$defs/BinaryExecOutputHeader", header);
    BinaryFrame decoded = BinaryFrames.decode(BinaryFrames.encode(frame));
    assertThat(decoded).isEqualTo(frame);
    assertThat(BinaryFrames.toExecOutput((BinaryFrame.ExecOutput) decoded)).isEqualTo(output);
  }

  @Provide
  Arbitrary<JsonNode> targetsAndElements() {
    return Arbitraries.oneOf(WireArbitraries.targets().map(WireCodec::toJson),
        WireArbitraries.elements().map(WireCodec::toJson), WireArbitraries.coordinateSpaces().map(WireCodec::toJson));
  }

  @Property(tries = 200)
  void nestedDefinitionsRoundTrip(@ForAll("targetsAndElements") JsonNode node) {
    Class<?> type = node.has("kind") ? Target.class : node.has("role") ? Element.class : CoordinateSpace.class;
    String pointer = "#/$defs/" + type.getSimpleName();
    schemaAccepts(pointer, WireCodec.write(node));
    Object decoded = WireCodec.decodeAs(type, node);
    assertThat(WireCodec.toJson(decoded)).isEqualTo(node);
  }
}
