package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The hand-written OpenAPI document describes every route the server registers, and resolves. */
class OpenApiTest {
  static TestServer s;
  static JsonNode doc;

  @BeforeAll
  static void start() {
    s = TestServer.start();
    doc = s.get("/openapi.json").json();
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  @Test
  void everyRegisteredRouteIsDescribed() {
    List<AgentdeskServer.Route> routes = s.server.routes();
    assertThat(routes).extracting(AgentdeskServer.Route::path).contains("/api/health", "/ws/events", "/openapi.json");
    List<String> missing = new ArrayList<>();
    for (AgentdeskServer.Route r : routes) {
      JsonNode path = doc.path("paths").path(r.path());
      String method = r.method().equals("WEBSOCKET") ? "get" : r.method().toLowerCase(Locale.ROOT);
      JsonNode operation = path.path(method);
      if (operation.isMissingNode()) {
        missing.add(r.method() + " " + r.path());
        continue;
      }
      assertThat(operation.path("summary").asText()).as(r + " summary").isNotBlank();
      assertThat(operation.path("responses").size()).as(r + " responses").isPositive();
      if (r.method().equals("WEBSOCKET")) {
        assertThat(operation.path("responses").has("101")).as(r + " is documented as an upgrade").isTrue();
      }
    }
    assertThat(missing).as("routes without an OpenAPI description").isEmpty();
  }

  @Test
  void everyDescribedOperationOfABuiltAreaIsRegistered() {
    // Areas whose pillar is in this build must serve everything the document promises for them.
    JsonNode features = s.get("/api/health").json().get("features");
    List<String> promisedButMissing = new ArrayList<>();
    doc.get("paths").fields().forEachRemaining(p -> {
      String area = area(p.getKey());
      if (area != null && !features.path(area).asBoolean()) {
        return;
      }
      p.getValue().fields().forEachRemaining(m -> {
        if (m.getKey().equals("parameters")) {
          return;
        }
        boolean ws = p.getKey().startsWith("/ws/");
        String method = ws ? "WEBSOCKET" : m.getKey().toUpperCase(Locale.ROOT);
        if (!s.server.routes().contains(new AgentdeskServer.Route(method, p.getKey()))) {
          promisedButMissing.add(method + " " + p.getKey());
        }
      });
    });
    assertThat(promisedButMissing).isEmpty();
  }

  private static String area(String path) {
    if (path.startsWith("/api/history")) {
      return "history";
    }
    if (path.startsWith("/api/terminals") || path.startsWith("/ws/terminals")) {
      return "terminals";
    }
    if (path.startsWith("/api/sandboxes")) {
      return "sandboxes";
    }
    if (path.startsWith("/api/agents")) {
      return "agents";
    }
    return null;
  }

  @Test
  void everyReferenceResolves() {
    List<String> refs = new ArrayList<>();
    collectRefs(doc, refs);
    assertThat(refs).isNotEmpty();
    for (String ref : refs) {
      assertThat(ref).startsWith("#/");
      assertThat(doc.at(ref.substring(1)).isMissingNode()).as(ref).isFalse();
    }
  }

  @Test
  void errorsAreDescribedAsCodeAndMessage() {
    JsonNode error = doc.at("/components/schemas/Error");
    assertThat(error.path("required")).extracting(JsonNode::asText).containsExactly("code", "message");
  }

  private static void collectRefs(JsonNode node, List<String> out) {
    if (node.isObject()) {
      node.fields().forEachRemaining(e -> {
        if (e.getKey().equals("$ref")) {
          out.add(e.getValue().asText());
        } else {
          collectRefs(e.getValue(), out);
        }
      });
    } else if (node.isArray()) {
      node.forEach(n -> collectRefs(n, out));
    }
  }
}
