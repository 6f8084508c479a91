package dev.agentdesk.testkit.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One answer of the {@link ModelServer} to one request: a streamed assistant message, or an HTTP
 * failure with the provider's error body and headers. Written by the protocol the request came in
 * on (Anthropic Messages today), so a scenario does not depend on the wire format.
 */
public sealed interface Reply {

  /**
   * An assistant message.
   *
   * @param blocks text and tool calls, in order
   * @param stopReason the provider's stop reason ({@code end_turn}, {@code tool_use}, …)
   * @param usage the token counts reported with it
   * @param pause how long to wait before each streamed delta (zero: as fast as possible); the
   *     slow-stream case: the agent shows its spinner while it waits
   * @param chunks how many deltas each text block is cut into
   */
  record Message(List<Block> blocks, String stopReason, Usage usage, Duration pause, int chunks) implements Reply {
    public Message {
      blocks = List.copyOf(blocks);
      Objects.requireNonNull(stopReason, "stopReason");
      Objects.requireNonNull(usage, "usage");
      Objects.requireNonNull(pause, "pause");
      if (chunks < 1) {
        throw new IllegalArgumentException("chunks < 1");
      }
    }

    /** The same message streamed in {@code chunks} deltas, {@code pause} apart. */
    public Message slow(Duration pause, int chunks) {
      return new Message(blocks, stopReason, usage, pause, chunks);
    }

    public Message withUsage(Usage u) {
      return new Message(blocks, stopReason, u, pause, chunks);
    }
  }

  /**
   * An HTTP error answer.
   *
   * @param status the HTTP status (429, 500, 401, 529, …)
   * @param errorType the provider's error type ({@code rate_limit_error}, {@code overloaded_error}, …)
   * @param message the provider's error message
   * @param headers extra response headers ({@code retry-after}, {@code anthropic-ratelimit-*}, …)
   */
  record Failure(int status, String errorType, String message, Map<String, String> headers) implements Reply {
    public Failure {
      Objects.requireNonNull(errorType, "errorType");
      Objects.requireNonNull(message, "message");
      headers = Map.copyOf(headers);
    }
  }

  /**
   * A reply made when its request arrives, from that request's body: a tool call that uses what
   * an earlier tool result said (an element ref the agent's previous call found, an id). The
   * server calls {@code build} once per attempt and answers with its {@link Message} or
   * {@link Failure}, and records that one in {@link ModelRequest#reply()}.
   */
  record FromRequest(java.util.function.Function<String, Reply> build) implements Reply {
    public FromRequest {
      Objects.requireNonNull(build, "build");
    }
  }

  /** A content block of a {@link Message}. */
  sealed interface Block {}

  /** Assistant text. */
  record Text(String text) implements Block {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * A tool call.
   *
   * @param id the call id (the agent sends it back with the result)
   * @param name the tool ({@code Bash}, {@code Write}, {@code AskUserQuestion}, {@code mcp__srv__tool}, …)
   * @param inputJson the input object as JSON text
   */
  record ToolUse(String id, String name, String inputJson) implements Block {
    public ToolUse {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(inputJson, "inputJson");
    }
  }

  /** Token counts as the provider reports them. */
  record Usage(long input, long output, long cacheCreation, long cacheRead) {
    public static final Usage SMALL = new Usage(10, 5, 0, 0);
  }

  /** A text reply that ends the turn. */
  static Message text(String text) {
    return new Message(List.of(new Text(text)), "end_turn", Usage.SMALL, Duration.ZERO, 1);
  }

  /** One tool call (after an optional lead-in text), stop reason {@code tool_use}. */
  static Message tool(String name, String inputJson) {
    return new Message(List.of(new ToolUse("toolu_" + Integer.toHexString(Objects.hash(name, inputJson) & 0xfffffff),
        name, inputJson)), "tool_use", Usage.SMALL, Duration.ZERO, 1);
  }

  /** A reply built from the body of the request it answers (see {@link FromRequest}). */
  static FromRequest fromRequest(java.util.function.Function<String, Reply> build) {
    return new FromRequest(build);
  }

  /** An error answer without extra headers. */
  static Failure failure(int status, String errorType, String message) {
    return new Failure(status, errorType, message, Map.of());
  }
}
