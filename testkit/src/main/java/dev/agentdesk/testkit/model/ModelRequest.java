package dev.agentdesk.testkit.model;

import java.util.List;
import java.util.Map;

/**
 * One request the {@link ModelServer} received, as it arrived, with what the server read from it
 * and what it answered.
 *
 * @param protocol the wire protocol ({@code anthropic-messages}, or {@code unknown} for a path no dialect serves)
 * @param method the HTTP method
 * @param path the path with its query
 * @param headers request headers, names in lower case, first value of each
 * @param body the body as text
 * @param model the model asked for, or null
 * @param stream whether a streamed answer was asked for
 * @param tools the names of the tools offered, in order
 * @param prompt the latest prompt (last user message with text of its own), or null
 * @param step assistant messages after that prompt (the scripted step), or 0
 * @param script the marker of the script that answered, or null (a default answer)
 * @param reply what the server answered, or null for a request that was not a model call
 */
public record ModelRequest(String protocol, String method, String path, Map<String, String> headers, String body,
    String model, boolean stream, List<String> tools, String prompt, int step, String script, Reply reply) {
  public ModelRequest {
    headers = Map.copyOf(headers);
    tools = List.copyOf(tools);
  }

  /** A header's value, or null. */
  public String header(String name) {
    return headers.get(name.toLowerCase(java.util.Locale.ROOT));
  }
}
