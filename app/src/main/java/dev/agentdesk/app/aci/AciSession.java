package dev.agentdesk.app.aci;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/**
 * Opens the SDK session the CLI options describe, and turns SDK failures the user can fix (wrong
 * URL, wrong token, a verb the runtime lacks) into user errors.
 */
final class AciSession {
  static final String DEFAULT_URL = "ws://127.0.0.1:8765";

  private AciSession() {}

  static AciClient open(AciSessionOptions o, Map<String, String> env) {
    URI uri = uri(o, env);
    String token = token(o, env);
    if (o.timeoutMs() <= 0) {
      throw o.userError("--timeout-ms must be positive, got " + o.timeoutMs(), null);
    }
    AciClientOptions options = AciClientOptions.defaults().withClient("agentdesk-cli", "0.1.0").withToken(token)
        .withCallTimeout(Duration.ofMillis(o.timeoutMs()));
    try {
      return AciClient.connect(uri, options);
    } catch (AciClientException e) {
      throw translate(o, e);
    }
  }

  /** The runtime's URL: --url, else $AGENTDESK_ACI_URL, else the default; ws:// or wss:// only. */
  static URI uri(AciSessionOptions o, Map<String, String> env) {
    String url = o.url() != null ? o.url() : env.getOrDefault("AGENTDESK_ACI_URL", DEFAULT_URL);
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw o.userError("--url " + url + " is not a URI: " + e.getMessage(), e);
    }
    if (!"ws".equals(uri.getScheme()) && !"wss".equals(uri.getScheme())) {
      throw o.userError("--url must be ws://HOST:PORT or wss://HOST:PORT, got " + url, null);
    }
    return uri;
  }

  /** The token: the --token-file's content, else $AGENTDESK_ACI_TOKEN, else null. */
  static String token(AciSessionOptions o, Map<String, String> env) {
    if (o.tokenFile() == null) {
      return env.get("AGENTDESK_ACI_TOKEN");
    }
    try {
      return Files.readString(o.tokenFile(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw o.userError("cannot read --token-file " + o.tokenFile() + ": " + e.getMessage(), e);
    }
  }

  /** SDK failures the user can act on become user errors; the rest stay as they are. */
  static RuntimeException translate(AciSessionOptions o, AciClientException e) {
    return switch (e.reason()) {
      case CONNECT_FAILED -> o.userError(e.getMessage() + " (is the runtime running? check --url)", e);
      case HANDSHAKE_FAILED -> o.userError(e.getMessage() + " (check --token-file)", e);
      case NOT_ADVERTISED -> o.userError(e.getMessage(), e);
      default -> e;
    };
  }
}
