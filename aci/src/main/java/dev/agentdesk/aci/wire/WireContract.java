package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import dev.agentdesk.aci.WireException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bundled ACI v0 JSON Schema (draft 2020-12), byte-identical to the project's wire contract,
 * and a validator over it. Validate a whole top-level message ({@code "#"}) or any definition
 * ({@code "#/$defs/Action"}, {@code "#/$defs/BinaryFrameHeader"}, ...).
 *
 * <p>Runtimes validate every outgoing message when {@link #debugEnabled()} — set the system
 * property {@value #DEBUG_PROPERTY}{@code =true} or the environment variable
 * {@value #DEBUG_ENV}{@code =1}.
 */
public final class WireContract {
  /** Classpath location of the bundled schema. */
  public static final String RESOURCE = "/dev/agentdesk/aci/wire/aci.schema.json";
  /** The schema's {@code $id}; definitions resolve against it. */
  public static final String SCHEMA_ID = "https://shinken.dev/schema/aci/v0";
  public static final String DEBUG_PROPERTY = "agentdesk.aci.validate";
  public static final String DEBUG_ENV = "AGENTDESK_ACI_VALIDATE";

  /** One schema complaint: where in the instance, which keyword, and the validator's words. */
  public record Violation(String instancePath, String keyword, String message) {}

  private static final Map<String, String> BRANCHES = Map.ofEntries(
      Map.entry(Hello.TYPE, "#/$defs/Hello"), Map.entry(Welcome.TYPE, "#/$defs/Welcome"),
      Map.entry(Ping.TYPE, "#/$defs/Ping"), Map.entry(Pong.TYPE, "#/$defs/Pong"),
      Map.entry(Query.TYPE, "#/$defs/Query"), Map.entry(Result.TYPE, "#/$defs/Result"),
      Map.entry(ActionMsg.TYPE, "#/$defs/ActionMsg"), Map.entry(Ack.TYPE, "#/$defs/Ack"),
      Map.entry(ObservationMsg.TYPE, "#/$defs/ObservationMsg"), Map.entry(ExecOutputMsg.TYPE, "#/$defs/ExecOutputMsg"),
      Map.entry(ExecExitMsg.TYPE, "#/$defs/ExecExitMsg"));

  private static final class Holder {
    static final WireContract BUNDLED = new WireContract(readSchemaText());
  }

  private final SchemaRegistry registry;
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

  private WireContract(String schemaText) {
    // Draft 2020-12 plus `discriminator`, an OpenAPI annotation the schema carries for code
    // generators; declaring it as non-validating keeps the validator from warning about it.
    Dialect dialect = Dialect.builder(Dialects.getDraft202012())
        .keyword(new NonValidationKeyword("discriminator"))
        .build();
    this.registry = SchemaRegistry.withDialect(dialect, builder -> builder.schemas(Map.of(SCHEMA_ID, schemaText)));
  }

  /** The contract over the bundled schema (loaded once). */
  public static WireContract bundled() {
    return Holder.BUNDLED;
  }

  /** The bundled schema's exact bytes. */
  public static byte[] schemaBytes() {
    try (InputStream in = WireContract.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("bundled schema " + RESOURCE + " is missing from the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readSchemaText() {
    return new String(schemaBytes(), StandardCharsets.UTF_8);
  }

  /** Whether the debug flag asks runtimes to validate every outgoing message. */
  public static boolean debugEnabled() {
    return Boolean.parseBoolean(System.getProperty(DEBUG_PROPERTY, "false"))
        || "1".equals(System.getenv(DEBUG_ENV)) || "true".equalsIgnoreCase(System.getenv(DEBUG_ENV));
  }

  /**
   * Complaints of the schema against {@code instance}, validated as {@code pointer}: {@code "#"}
   * for a top-level message or {@code "#/$defs/Name"} for a definition. Empty means valid.
   */
  public List<Violation> validate(String pointer, JsonNode instance) {
    List<Error> errors = schema(pointer).validate(instance);
    return errors.stream()
        .map(e -> new Violation(String.valueOf(e.getInstanceLocation()), e.getKeyword(), e.getMessage()))
        .toList();
  }

  /** Validates JSON text as {@code pointer}; malformed text is a {@link WireException}. */
  public List<Violation> validate(String pointer, String json) {
    return validate(pointer, WireCodec.parse(json));
  }

  /** Validates a whole top-level message. */
  public List<Violation> validate(JsonNode message) {
    return validate("#", message);
  }

  /** Throws {@link WireException} ({@code SCHEMA_VIOLATION}) when the message breaks the schema. */
  public void check(AciMessage message) {
    check("#", WireCodec.toJson(message));
  }

  /** Throws {@link WireException} ({@code SCHEMA_VIOLATION}) when the instance breaks the schema. */
  public void check(String pointer, JsonNode instance) {
    List<Violation> violations = validate(pointer, instance);
    if (!violations.isEmpty()) {
      // A top-level oneOf failure lists every branch; the branch the `type` names says what is wrong.
      String branch = pointer.equals("#") ? BRANCHES.get(instance.path("type").asText("")) : null;
      if (branch != null && !validate(branch, instance).isEmpty()) {
        violations = validate(branch, instance);
      }
      Violation first = violations.get(0);
      throw new WireException(WireException.Reason.SCHEMA_VIOLATION, first.instancePath().replaceFirst("^\\$", ""),
          pointer + ": " + first.message() + (violations.size() > 1 ? " (+" + (violations.size() - 1) + " more)" : ""));
    }
  }

  private Schema schema(String pointer) {
    if (!pointer.equals("#") && !pointer.startsWith("#/")) {
      throw new IllegalArgumentException("not a schema pointer: " + pointer);
    }
    return schemas.computeIfAbsent(pointer, p -> {
      Schema s = registry.getSchema(SchemaLocation.of(SCHEMA_ID + p));
      s.initializeValidators();
      return s;
    });
  }
}
