package dev.agentdesk.app.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The official MCP TypeScript SDK's client (tools/mcp-client, pinned by its lock file) run by node
 * on a plan of steps; answers the client's JSON report. Installs the npm packages itself when
 * scripts/setup-system has not run yet.
 */
final class McpClient {
  private final ObjectNode plan = Json.MAPPER.createObjectNode();
  private final ArrayNode steps = plan.putArray("steps");

  private McpClient() {}

  static McpClient http(String url, String token) {
    McpClient c = new McpClient();
    c.plan.put("transport", "http").put("url", url);
    if (token != null) {
      c.plan.put("token", token);
    }
    return c;
  }

  static McpClient stdio(List<String> command, Map<String, String> env) {
    McpClient c = new McpClient();
    c.plan.put("transport", "stdio").put("command", command.get(0));
    ArrayNode args = c.plan.putArray("args");
    command.subList(1, command.size()).forEach(args::add);
    ObjectNode e = c.plan.putObject("env");
    env.forEach(e::put);
    return c;
  }

  McpClient listTools() {
    steps.addObject().put("op", "listTools").put("label", "tools");
    return this;
  }

  McpClient listResourceTemplates() {
    steps.addObject().put("op", "listResourceTemplates").put("label", "templates");
    return this;
  }

  McpClient readResource(String label, String uri) {
    steps.addObject().put("op", "readResource").put("label", label).put("uri", uri);
    return this;
  }

  McpClient call(String label, String tool, Object arguments) {
    ObjectNode s = steps.addObject().put("op", "call").put("label", label).put("name", tool);
    s.set("arguments", Json.MAPPER.valueToTree(arguments));
    return this;
  }

  McpClient callUntil(String label, String tool, Object arguments, String contains) {
    ObjectNode s = steps.addObject().put("op", "callUntil").put("label", label).put("name", tool)
        .put("contains", contains).put("timeoutMs", 20_000);
    s.set("arguments", Json.MAPPER.valueToTree(arguments));
    return this;
  }

  McpClient time(String label, String tool, Object arguments, int warmup, int count) {
    ObjectNode s = steps.addObject().put("op", "time").put("label", label).put("name", tool)
        .put("warmup", warmup).put("count", count);
    s.set("arguments", Json.MAPPER.valueToTree(arguments));
    return this;
  }

  McpClient clientName(String name) {
    plan.put("clientName", name);
    return this;
  }

  /** Runs the plan; the report, with each step's answer under its label in {@code byLabel}. */
  Report run() throws IOException, InterruptedException {
    Path dir = clientDir();
    Path planFile = Files.createTempFile("mcp-plan", ".json");
    try {
      Files.writeString(planFile, plan.toString());
      Process p = new ProcessBuilder("node", dir.resolve("drive.mjs").toString(), planFile.toString())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the MCP client did not finish in 180 s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new AssertionError("the MCP client exited with " + p.exitValue() + ": " + text);
      }
      return new Report(Json.MAPPER.readTree(text));
    } finally {
      Files.deleteIfExists(planFile);
    }
  }

  /** What the client reported. */
  record Report(JsonNode json) {
    JsonNode step(String label) {
      for (JsonNode s : json.path("steps")) {
        if (label.equals(s.path("label").asText())) {
          return s;
        }
      }
      throw new AssertionError("no step " + label + " in " + json);
    }

    /** A call's result, which must have succeeded at the protocol level. */
    JsonNode result(String label) {
      JsonNode s = step(label);
      if (!s.path("ok").asBoolean()) {
        throw new AssertionError(label + " failed in the client: " + s);
      }
      return s.path("result");
    }

    String instructions() {
      return json.path("instructions").asText();
    }

    String text(String label) {
      return result(label).path("content").path(0).path("text").asText();
    }
  }

  static Path clientDir() throws IOException, InterruptedException {
    Path root = SharedCorpus.repoRoot().orElseThrow(() -> new IllegalStateException("repository root not found"));
    Path dir = root.resolve("tools/mcp-client");
    if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      Process npm = new ProcessBuilder("npm", "ci", "--silent", "--no-audit", "--no-fund")
          .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
        throw new IOException("npm ci in " + dir + " failed; run scripts/setup-system");
      }
    }
    return dir;
  }
}
