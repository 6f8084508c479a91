package dev.agentdesk.app.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/** The server's one JSON configuration: snake_case fields, unknown request fields refused. */
public final class Json {
  private Json() {}

  public static final ObjectMapper MAPPER = new ObjectMapper()
      .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .findAndRegisterModules();

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new ServeException(ServeException.Reason.INTERNAL, "could not write JSON", e);
    }
  }

  /** Reads a request body; every way it can be wrong becomes a 400 that says what was wrong. */
  public static <T> T read(String body, Class<T> type) {
    if (body == null || body.isBlank()) {
      throw new ServeException(ServeException.Reason.INVALID_JSON, "the request needs a JSON body");
    }
    try {
      T value = MAPPER.readValue(body, type);
      if (value == null) {
        throw new ServeException(ServeException.Reason.INVALID_JSON, "the request body must be a JSON object");
      }
      return value;
    } catch (UnrecognizedPropertyException e) {
      throw new ServeException(ServeException.Reason.BAD_REQUEST,
          "unknown field '" + e.getPropertyName() + "'; known fields: " + e.getKnownPropertyIds());
    } catch (ValueInstantiationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new ServeException(ServeException.Reason.BAD_REQUEST, String.valueOf(cause.getMessage()));
    } catch (MismatchedInputException e) {
      String field = e.getPath().isEmpty() ? "body" : e.getPath().get(e.getPath().size() - 1).getFieldName();
      throw new ServeException(ServeException.Reason.BAD_REQUEST,
          "field '" + field + "' has the wrong type or is missing");
    } catch (JsonProcessingException e) {
      throw new ServeException(ServeException.Reason.INVALID_JSON,
          "the request body is not valid JSON: " + e.getOriginalMessage());
    }
  }
}
