package dev.agentdesk.testkit.model;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.List;

/**
 * One model API's wire format: which paths it serves, what a request asks, how a {@link Reply}
 * is written. The server keeps the scripts and the record; a dialect only translates, so OpenAI
 * Responses, Chat Completions or Gemini are one more implementation each.
 */
interface Dialect {
  /** The name recorded as {@link ModelRequest#protocol()}. */
  String name();

  /** True when this dialect serves {@code method path} (the path without its query). */
  boolean serves(String method, String path);

  /** What the request body asks; {@code json} is the parsed body. */
  Asked read(String path, Object json);

  /**
   * Answers a request that is not a model call ({@code count_tokens} and the like), or returns
   * false to answer it as one.
   */
  boolean answerAuxiliary(String path, Object json, HttpExchange ex) throws IOException;

  /** Writes {@code reply} (streamed when {@code stream}). */
  void write(Reply reply, boolean stream, String model, HttpExchange ex) throws IOException, InterruptedException;

  /**
   * What a request asks.
   *
   * @param prompt the latest prompt text, or null
   * @param step assistant messages after it
   */
  record Asked(String model, boolean stream, List<String> tools, String prompt, int step) {}
}
