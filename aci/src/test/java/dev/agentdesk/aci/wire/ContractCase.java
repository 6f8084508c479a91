package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.WireException;
import java.util.Map;

/**
 * One contract example: a JSON instance, the schema pointer it is validated against, and whether
 * it must be accepted. Shared by the corpus test and the project's own fixture test.
 */
record ContractCase(String name, boolean valid, String validateAgainst, String reason, JsonNode message) {
  private static final Map<String, Class<?>> DEFINITIONS = Map.of(
      "#/$defs/Action", Action.class,
      "#/$defs/ActionBatch", ActionBatch.class,
      "#/$defs/ExecResult", ExecResult.class,
      "#/$defs/BinaryFrameHeader", BinaryFrameHeader.class,
      "#/$defs/BinaryExecOutputHeader", BinaryExecOutputHeader.class,
      "#/$defs/Element", Element.class,
      "#/$defs/CoordinateSpace", CoordinateSpace.class,
      "#/$defs/ObserveSpec", ObserveSpec.class,
      "#/$defs/Tile", Tile.class,
      "#/$defs/Target", Target.class);

  static ContractCase of(String name, JsonNode entry) {
    String expect = entry.path("expect").asText();
    if (!expect.equals("valid") && !expect.equals("invalid")) {
      throw new IllegalArgumentException(name + ": expect must be valid|invalid, got " + expect);
    }
    return new ContractCase(name, expect.equals("valid"), entry.path("validate_against").asText("#"),
        entry.path("reason").asText(), entry.get("message"));
  }

  /** Decodes with the Java decoder; returns the typed object or throws {@link WireException}. */
  Object decode() {
    if (validateAgainst.equals("#")) {
      return WireCodec.decode(message);
    }
    Class<?> type = DEFINITIONS.get(validateAgainst);
    if (type == null) {
      throw new IllegalArgumentException(name + ": no Java decoder for " + validateAgainst);
    }
    return WireCodec.decodeAs(type, message);
  }

  /** Re-encodes a decoded object the same way it was decoded. */
  static JsonNode encode(Object decoded) {
    return WireCodec.toJson(decoded);
  }

  @Override
  public String toString() {
    return name + " [" + (valid ? "valid" : "invalid") + " " + validateAgainst + "] " + reason;
  }
}
