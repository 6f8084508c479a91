package dev.agentdesk.app.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The hand-written OpenAPI 3.1 description of the API, a resource next to this class. */
public final class OpenApiDocument {
  private static volatile byte[] cached;

  private OpenApiDocument() {}

  public static byte[] bytes() {
    byte[] b = cached;
    if (b == null) {
      try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi.json")) {
        if (in == null) {
          throw new IllegalStateException("openapi.json is missing from the jar");
        }
        b = in.readAllBytes();
        cached = b;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return b;
  }
}
