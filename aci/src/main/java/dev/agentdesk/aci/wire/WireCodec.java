package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The JSON codec of ACI v0. {@link #decode(String)} turns one text frame into a typed
 * {@link AciMessage} or throws a {@link WireException} whose reason and path name the problem;
 * {@link #encode(AciMessage)} writes compact JSON that omits absent optional fields. The decoder
 * accepts exactly what the bundled schema accepts (see {@link WireContract}).
 */
public final class WireCodec {
  private WireCodec() {}

  // Duplicate keys are refused: a message whose meaning depends on which duplicate wins is ambiguous.
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private static final Map<Class<?>, BiFunction<JsonNode, String, ?>> DEFINITION_DECODERS = Map.of(
      Action.class, JsonDecoders::action,
      ActionBatch.class, JsonDecoders::actionBatch,
      ExecResult.class, JsonDecoders::execResult,
      BinaryFrameHeader.class, JsonDecoders::binaryFrameHeader,
      BinaryExecOutputHeader.class, JsonDecoders::binaryExecOutputHeader,
      Element.class, JsonDecoders::element,
      CoordinateSpace.class, JsonDecoders::coordinateSpace,
      ObserveSpec.class, JsonDecoders::observeSpec,
      Tile.class, JsonDecoders::tile,
      Target.class, JsonDecoders::target);

  private static final Map<Class<?>, Function<Object, ObjectNode>> DEFINITION_ENCODERS =
      JsonEncoders.definitions();

  /** Parses JSON text into a tree, refusing syntax errors, trailing data and duplicate keys. */
  public static JsonNode parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (node == null || node.isMissingNode()) {
        throw new WireException(Reason.MALFORMED_JSON, "", "empty input");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new WireException(Reason.MALFORMED_JSON, "", e.getOriginalMessage(), e);
    }
  }

  /** Decodes one top-level text message. */
  public static AciMessage decode(String json) {
    return decode(parse(json));
  }

  /** Decodes one top-level message from a JSON tree. */
  public static AciMessage decode(JsonNode node) {
    return JsonDecoders.message(node);
  }

  /**
   * Decodes a standalone schema definition: {@link Action}, {@link ActionBatch}, {@link ExecResult}
   * (the value of a buffered exec's result), {@link BinaryFrameHeader}, {@link BinaryExecOutputHeader},
   * {@link Element}, {@link CoordinateSpace}, {@link ObserveSpec}, {@link Tile} or {@link Target}.
   */
  public static <T> T decodeAs(Class<T> type, JsonNode node) {
    BiFunction<JsonNode, String, ?> decoder = DEFINITION_DECODERS.get(type);
    if (decoder == null) {
      throw new IllegalArgumentException("no standalone decoder for " + type.getName());
    }
    return type.cast(decoder.apply(node, ""));
  }

  public static <T> T decodeAs(Class<T> type, String json) {
    return decodeAs(type, parse(json));
  }

  /** The message as a JSON tree (a fresh object the caller may change). */
  public static ObjectNode toJson(AciMessage message) {
    return JsonEncoders.message(message);
  }

  /** A standalone definition (see {@link #decodeAs(Class, JsonNode)}) as a JSON tree. */
  public static ObjectNode toJson(Object definition) {
    if (definition instanceof AciMessage m) {
      return toJson(m);
    }
    if (definition instanceof Target t) {
      return JsonEncoders.target(t);
    }
    Function<Object, ObjectNode> encoder = DEFINITION_ENCODERS.get(definition.getClass());
    if (encoder == null) {
      throw new IllegalArgumentException("no standalone encoder for " + definition.getClass().getName());
    }
    return encoder.apply(definition);
  }

  /** Compact JSON text of one message. */
  public static String encode(AciMessage message) {
    return write(toJson(message));
  }

  /** Compact JSON text of a standalone definition. */
  public static String encode(Object definition) {
    return write(toJson(definition));
  }

  /** Compact JSON text of any tree. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }
}
