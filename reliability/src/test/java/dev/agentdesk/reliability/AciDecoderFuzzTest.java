package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ACI decoders fed random and mutated messages. Every input must either be rejected with a
 * typed {@link WireException} or be accepted — and then the schema must accept it too, and the
 * re-encoded message must validate. Any other exception, or a disagreement between the Java
 * decoder and the schema validator, fails the run.
 */
class AciDecoderFuzzTest {
  private static final long SEED = 0xAC1_F022L;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final WireContract contract = WireContract.bundled();

  @Test
  void jsonMessagesAreRejectedWithATypedErrorOrAcceptedAsValid() throws IOException {
    List<JsonNode> seeds = topLevelSeeds();
    assertThat(seeds).hasSizeGreaterThan(50);
    long cases = Size.pick(10_000L, 1_000_000L);
    Mutator mutator = new Mutator(SEED);
    SplittableRandom random = mutator.random();
    Map<WireException.Reason, Integer> reasons = new EnumMap<>(WireException.Reason.class);
    int accepted = 0;
    int beyond64Bits = 0;
    List<String> disagreements = new ArrayList<>();
    for (long i = 0; i < cases; i++) {
      JsonNode seed = seeds.get(random.nextInt(seeds.size()));
      String text = random.nextInt(4) == 0
          ? new String(mutator.mutate(seed.toString().getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8)
          : mutateTree(seed.deepCopy(), random, 1 + random.nextInt(3)).toString();
      AciMessage decoded;
      try {
        decoded = WireCodec.decode(text);
      } catch (WireException e) {
        reasons.merge(e.reason(), 1, Integer::sum);
        if (e.reason() == WireException.Reason.INVALID_VALUE && hasIntegerBeyond64Bits(text)) {
          // Documented limit of the Java model (docs/aci-wire.md): integers are 64-bit (pixel caps saturate).
          beyond64Bits++;
          continue;
        }
        if (e.reason() != WireException.Reason.MALFORMED_JSON && schemaValid(text) && disagreements.size() < 10) {
          disagreements.add("decoder rejected (" + e.getMessage() + ") what the schema accepts: " + text);
        }
        continue;
      } catch (RuntimeException e) {
        throw new AssertionError("untyped exception for input " + text, e);
      }
      accepted++;
      if (!schemaValid(text) && disagreements.size() < 10) {
        disagreements.add("decoder accepted what the schema rejects " + contract.validate("#", text) + ": " + text);
      }
      assertThat(contract.validate("#", WireCodec.encode(decoded))).as("re-encoded %s", text).isEmpty();
    }
    assertThat(disagreements).isEmpty();
    assertThat(accepted).as("some mutations stay valid").isPositive();
    Figures.of("ACI JSON decoder fuzz").put("accepted", accepted).put("rejected", cases - accepted)
        .put("reasons", reasons.toString()).put("rejected_beyond_64_bit_integers", beyond64Bits)
        .write(cases + " messages", "every one typed-rejected or schema-valid; decoder and schema agree");
  }

  @Test
  void binaryFramesAreRejectedWithATypedErrorOrAccepted() throws IOException {
    List<byte[]> seeds = binarySeeds();
    assertThat(seeds).isNotEmpty();
    long cases = Size.pick(20_000L, 2_000_000L);
    Mutator mutator = new Mutator(SEED + 1);
    SplittableRandom random = mutator.random();
    int accepted = 0;
    Map<WireException.Reason, Integer> reasons = new EnumMap<>(WireException.Reason.class);
    for (long i = 0; i < cases; i++) {
      byte[] input = random.nextInt(5) == 0
          ? mutator.randomBytes(256)
          : mutator.mutate(seeds.get(random.nextInt(seeds.size())));
      try {
        BinaryFrame frame = BinaryFrames.decode(input);
        accepted++;
        // An accepted frame survives its own round trip unchanged.
        BinaryFrame again = BinaryFrames.decode(BinaryFrames.encode(frame));
        assertThat(again.payload()).isEqualTo(frame.payload());
      } catch (WireException e) {
        reasons.merge(e.reason(), 1, Integer::sum);
      } catch (RuntimeException e) {
        throw new AssertionError("untyped exception for frame of " + input.length + " bytes (case " + i + ")", e);
      }
    }
    assertThat(accepted).isPositive();
    Figures.of("ACI binary frame decoder fuzz").put("accepted", accepted).put("rejected", cases - accepted)
        .put("reasons", reasons.toString())
        .write(cases + " frames", "every one typed-rejected or accepted and round-trips");
  }

  private static boolean hasIntegerBeyond64Bits(String text) {
    try {
      return beyond64Bits(MAPPER.readTree(text));
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean beyond64Bits(JsonNode node) {
    if (node.isNumber()) {
      java.math.BigDecimal d = node.decimalValue();
      return (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0)
          && (d.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0
              || d.compareTo(java.math.BigDecimal.valueOf(Long.MIN_VALUE)) < 0);
    }
    for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
      if (beyond64Bits(it.next())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The schema bounds {@code max_long_edge} below only: values beyond 32 and 64 bits are valid,
   * and the decoder accepts them (saturated to the largest int, which caps nothing either).
   * {@code quality} has a maximum of 100, so a huge one stays a typed rejection.
   */
  @Test
  void pixelCapsBeyondThe32BitRangeAreAcceptedAsTheSchemaAllows() {
    for (String edge : List.of("2147483648", "1099511627776", "100000000000000000000000000000", "4.4e12")) {
      String json = "{\"verb\":\"screenshot\",\"max_long_edge\":" + edge + "}";
      assertThat(contract.validate("#/$defs/Action", json)).as("schema accepts %s", edge).isEmpty();
      Action a = WireCodec.decodeAs(Action.class, json);
      assertThat(a.maxLongEdge()).as("decoded %s", edge).isEqualTo(Integer.MAX_VALUE);
      assertThat(contract.validate("#/$defs/Action", WireCodec.encode(a))).as("re-encoded %s", edge).isEmpty();
    }
    for (String bad : List.of("\"max_long_edge\":0", "\"max_long_edge\":-99999999999", "\"max_long_edge\":1.5",
        "\"quality\":4294967296")) {
      String json = "{\"verb\":\"screenshot\"," + bad + "}";
      assertThat(contract.validate("#/$defs/Action", json)).as("schema rejects %s", bad).isNotEmpty();
      assertThatThrownBy(() -> WireCodec.decodeAs(Action.class, json)).as(bad).isInstanceOf(WireException.class);
    }
  }

  private boolean schemaValid(String text) {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (IOException e) {
      return false;
    }
    return node != null && contract.validate("#", node).isEmpty();
  }

  /** Structure-aware mutations: drop, add, retype or duplicate fields somewhere in the tree. */
  private static JsonNode mutateTree(JsonNode root, SplittableRandom random, int steps) {
    for (int s = 0; s < steps; s++) {
      List<ObjectNode> objects = new ArrayList<>();
      collectObjects(root, objects);
      if (objects.isEmpty()) {
        return root;
      }
      ObjectNode target = objects.get(random.nextInt(objects.size()));
      List<String> names = new ArrayList<>();
      target.fieldNames().forEachRemaining(names::add);
      int op = random.nextInt(4);
      if (op == 0 && !names.isEmpty()) {
        target.remove(names.get(random.nextInt(names.size())));
      } else if (op == 1) {
        target.set("x_" + random.nextInt(1000), randomValue(random));
      } else if (op == 2 && !names.isEmpty()) {
        target.set(names.get(random.nextInt(names.size())), randomValue(random));
      } else if (!names.isEmpty()) {
        String name = names.get(random.nextInt(names.size()));
        String other = names.get(random.nextInt(names.size()));
        target.set(name, target.get(other).deepCopy());
      }
    }
    return root;
  }

  private static JsonNode randomValue(SplittableRandom random) {
    return switch (random.nextInt(10)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt(-5, 5));
      case 3 -> NODES.numberNode(random.nextDouble() * 1e12 - 5e11);
      case 4 -> NODES.numberNode(Long.MAX_VALUE);
      case 5 -> NODES.textNode(List.of("", "screen", "window:0x1f", "active_window", "click", "png", "e1", "\u0000",
          "window:-1", "x".repeat(5000)).get(random.nextInt(10)));
      case 6 -> {
        ArrayNode a = NODES.arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          a.add(randomValue(random));
        }
        yield a;
      }
      case 7 -> NODES.objectNode().put("kind", "point_px").put("x", random.nextInt(-10, 5000)).put("y", 1);
      case 8 -> NODES.numberNode(random.nextInt(0, 40_000));
      default -> NODES.objectNode();
    };
  }

  private static void collectObjects(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode o) {
      out.add(o);
    }
    for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
      collectObjects(it.next(), out);
    }
  }

  private static List<JsonNode> fixtureEntries() throws IOException {
    List<JsonNode> entries = new ArrayList<>();
    for (Path p : Seeds.files(List.of("aci/src/test/resources/dev/agentdesk/aci/wire/contract"),
        List.of("corpus/aci"), f -> f.toString().endsWith(".json"))) {
      MAPPER.readTree(p.toFile()).forEach(entries::add);
    }
    return entries;
  }

  private static List<JsonNode> topLevelSeeds() throws IOException {
    return fixtureEntries().stream()
        .filter(e -> "#".equals(e.path("validate_against").asText()) && "valid".equals(e.path("expect").asText()))
        .map(e -> e.get("message"))
        .toList();
  }

  /** Valid binary headers from the fixtures, each framed with a payload area its ranges fit. */
  private static List<byte[]> binarySeeds() throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (JsonNode e : fixtureEntries()) {
      String against = e.path("validate_against").asText();
      if (!"valid".equals(e.path("expect").asText()) || !against.startsWith("#/$defs/Binary")) {
        continue;
      }
      JsonNode header = e.get("message");
      long end = 0;
      for (JsonNode range : ranges(header)) {
        end = Math.max(end, range.path("off").asLong() + range.path("len").asLong());
      }
      if (end > 1 << 20) {
        continue;
      }
      byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
      ByteBuffer buf = ByteBuffer.allocate(4 + json.length + (int) end).order(ByteOrder.LITTLE_ENDIAN);
      buf.putInt(json.length).put(json);
      out.add(buf.array());
    }
    return out;
  }

  private static List<JsonNode> ranges(JsonNode header) {
    List<JsonNode> r = new ArrayList<>();
    for (String key : List.of("image", "data")) {
      if (header.has(key) && header.get(key).isObject()) {
        r.add(header.get(key));
      }
    }
    header.path("tiles").forEach(r::add);
    return r;
  }
}
