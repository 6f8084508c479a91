package dev.agentdesk.aci.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.statistics.Statistics;

/**
 * Beyond the fixtures: valid messages, mutated at random (a field dropped, retyped, given an
 * out-of-range value, or an unknown sibling added, at any depth), must get the same verdict from
 * the schema validator and the Java decoder. And no input — garbage text or garbage frames — makes
 * either decoder throw anything but a {@link WireException}.
 */
class DecoderAgreementPropertiesTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final List<JsonNode> ODD_VALUES = List.of(F.nullNode(), F.textNode(""), F.textNode("x"),
      F.numberNode(-1), F.numberNode(0), F.numberNode(1), F.numberNode(101), F.numberNode(2.5), F.numberNode(1e9),
      F.booleanNode(true), F.booleanNode(false), F.arrayNode(), F.objectNode(), F.textNode("window:7"),
      F.textNode("png"), F.textNode("click"));

  @Provide
  Arbitrary<JsonNode> mutatedMessages() {
    return WireArbitraries.messages().flatMap(m -> Arbitraries.longs().map(seed -> mutate(WireCodec.toJson(m), seed)));
  }

  /** One random mutation somewhere in the tree. */
  static JsonNode mutate(ObjectNode message, long seed) {
    Random random = new Random(seed);
    List<ObjectNode> objects = new ArrayList<>();
    collect(message, objects);
    ObjectNode target = objects.get(random.nextInt(objects.size()));
    List<String> names = new ArrayList<>();
    target.fieldNames().forEachRemaining(names::add);
    int kind = names.isEmpty() ? 2 : random.nextInt(3);
    switch (kind) {
      case 0 -> target.remove(names.get(random.nextInt(names.size())));
      case 1 -> target.set(names.get(random.nextInt(names.size())), ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
      default -> target.set("extra_" + random.nextInt(3), ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
    }
    return message;
  }

  private static void collect(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode o) {
      out.add(o);
      Iterator<JsonNode> it = o.elements();
      while (it.hasNext()) {
        collect(it.next(), out);
      }
    } else if (node instanceof ArrayNode a) {
      a.forEach(n -> collect(n, out));
    }
  }

  @Property(tries = 1500)
  void validatorAndDecoderAgreeOnMutatedMessages(@ForAll("mutatedMessages") JsonNode message) {
    boolean schemaValid = WireContract.bundled().validate("#", message).isEmpty();
    boolean decoded;
    try {
      WireCodec.decode(message);
      decoded = true;
    } catch (WireException e) {
      decoded = false;
    }
    Statistics.collect(schemaValid ? "valid" : "invalid");
    assertThat(decoded).as("decoder verdict on %s (schema says %s)", message, schemaValid ? "valid" : "invalid")
        .isEqualTo(schemaValid);
  }

  /** The full-size run of the same property ({@code -Preliability}). */
  @Property(tries = 20000)
  @Tag("slow")
  void validatorAndDecoderAgreeOnManyMoreMutatedMessages(@ForAll("mutatedMessages") JsonNode message) {
    validatorAndDecoderAgreeOnMutatedMessages(message);
  }

  @Property(tries = 500)
  void garbageTextIsOnlyEverAWireException(@ForAll("garbage") String text) {
    try {
      WireCodec.decode(text);
    } catch (WireException e) {
      assertThat(e.reason()).isNotNull();
    }
  }

  @Provide
  Arbitrary<String> garbage() {
    Arbitrary<String> structured = WireArbitraries.messages().map(WireCodec::encode)
        .flatMap(json -> Arbitraries.integers().between(0, json.length()).map(cut -> json.substring(0, cut)));
    return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40), structured,
        Arbitraries.of("{}", "[]", "null", "1", "\"type\"", "{\"type\":null}", "{\"type\":\"action\",\"action\":[]}"));
  }

  @Property(tries = 500)
  void garbageFramesAreOnlyEverAWireException(@ForAll("frames") byte[] frame) {
    try {
      BinaryFrames.decode(frame);
    } catch (WireException e) {
      assertThat(e.reason()).isNotNull();
    }
  }

  @Provide
  Arbitrary<byte[]> frames() {
    Arbitrary<byte[]> valid = WireArbitraries.imageObservations()
        .map(o -> BinaryFrames.encode(BinaryFrames.fromObservation(o)));
    Arbitrary<byte[]> corrupted = valid.flatMap(f -> Arbitraries.integers().between(0, f.length - 1)
        .flatMap(at -> Arbitraries.bytes().map(b -> {
          byte[] copy = f.clone();
          copy[at] = b;
          return copy;
        })));
    Arbitrary<byte[]> truncated = valid.flatMap(f -> Arbitraries.integers().between(0, f.length)
        .map(n -> java.util.Arrays.copyOf(f, n)));
    return Arbitraries.oneOf(Arbitraries.bytes().array(byte[].class).ofMaxSize(64), corrupted, truncated);
  }
}
