package dev.agentdesk.app.aci;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.computeruse.AnthropicComputerTool;
import dev.agentdesk.computeruse.ComputerTool;
import dev.agentdesk.computeruse.DisplaySize;
import dev.agentdesk.computeruse.OpenAiComputerTool;
import dev.agentdesk.computeruse.ToolResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agentdesk aci tool-call}: vendor computer-use tool calls (JSON on stdin, one after
 * another) carried out on the runtime, each tool result printed as one JSON line. One session
 * serves the whole input, so the pointer and the coordinate space carry from call to call.
 */
@Command(name = "tool-call", mixinStandardHelpOptions = true,
    description = {"Carry out Anthropic or OpenAI computer-use tool calls (JSON on stdin) and print each tool result "
        + "(one JSON line).",
        "Anthropic: tool_use blocks (or their input); OpenAI: computer_call items (or their action). Exit 1 when a "
            + "call failed (Anthropic's is_error result is still printed; OpenAI's failure goes to stderr)."})
public final class AciToolCall extends AciCommands.Base {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--format", required = true, paramLabel = "anthropic|openai", description = "Whose tool calls.")
  String format;

  @Option(names = "--display", paramLabel = "WxH",
      description = "The display size the tool was declared with (default: the runtime's screen size).")
  String display;

  @Option(names = "--tool-version", paramLabel = "TYPE", defaultValue = "computer_20251124",
      description = "Anthropic tool type: computer_20251124 (with zoom) or computer_20250124 "
          + "(default: ${DEFAULT-VALUE}).")
  String toolVersion;

  @Option(names = "--settle-ms", paramLabel = "N", defaultValue = "0",
      description = "Wait N ms between an action and its screenshot (default: ${DEFAULT-VALUE}: right after it).")
  long settleMs;

  @Option(names = "--input", paramLabel = "FILE", description = "Read the calls from FILE instead of stdin.")
  Path input;

  @Override
  int run(AciClient c) {
    ComputerTool tool = tool(c);
    boolean failed = false;
    try (InputStream in = input == null ? System.in : Files.newInputStream(input);
        MappingIterator<JsonNode> calls = JSON.readerFor(JsonNode.class).readValues(in)) {
      int n = 0;
      JsonNode call;
      while ((call = next(calls, n)) != null) {
        n++;
        ToolResult r = tool.call(call);
        if (r.json() != null) {
          out().println(JSON.writeValueAsString(r.json()));
          out().flush();
        }
        if (!r.ok()) {
          failed = true;
          err().println("agentdesk aci tool-call: call " + n + describe(call) + ": " + r.error());
          err().flush();
        }
      }
      if (n == 0) {
        throw parent.userError("no tool call on " + (input == null ? "stdin" : input)
            + " (expected JSON such as {\"action\":\"screenshot\"})", null);
      }
    } catch (IOException e) {
      throw parent.userError("cannot read " + (input == null ? "stdin" : input) + ": " + e.getMessage(), e);
    }
    return failed ? 1 : 0;
  }

  /** The next call, or null at the end of the input. */
  private JsonNode next(MappingIterator<JsonNode> calls, int done) {
    try {
      return calls.hasNextValue() ? calls.nextValue() : null;
    } catch (IOException e) {
      String what = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw parent.userError("tool call " + (done + 1) + " is not JSON: " + what + " (" + done
          + " call(s) before it were carried out)", e);
    }
  }

  private static String describe(JsonNode call) {
    for (String id : new String[] {"id", "call_id"}) {
      if (call.path(id).isTextual()) {
        return " (" + call.get(id).asText() + ")";
      }
    }
    return "";
  }

  private ComputerTool tool(AciClient c) {
    DisplaySize size;
    try {
      size = display != null ? DisplaySize.parse(display)
          : new DisplaySize((int) c.screenSize().w(), (int) c.screenSize().h());
    } catch (IllegalArgumentException e) {
      throw parent.userError("--display: " + e.getMessage(), e);
    }
    if (settleMs < 0) {
      throw parent.userError("--settle-ms must be >= 0, got " + settleMs, null);
    }
    Duration settle = Duration.ofMillis(settleMs);
    return switch (format) {
      case "anthropic" -> {
        AnthropicComputerTool.Version v;
        try {
          v = AnthropicComputerTool.Version.of(toolVersion);
        } catch (IllegalArgumentException e) {
          throw parent.userError("--tool-version: " + e.getMessage(), e);
        }
        yield AnthropicComputerTool.create(c, v, size, settle, true);
      }
      case "openai" -> OpenAiComputerTool.create(c, size, settle);
      default -> throw parent.userError("--format must be anthropic or openai, got " + format, null);
    };
  }
}
