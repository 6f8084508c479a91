package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.ObservationType;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@link AciClient#connect} introduces itself and how long it waits.
 *
 * @param clientName {@code hello.client.name}
 * @param clientVersion {@code hello.client.version}
 * @param token bearer token for the runtime, or null to send none
 * @param observationTypes {@code hello.accept.observation_types}, or null to omit
 * @param binaryFrames ask for binary media/exec frames ({@code hello.accept.binary_frames}); used
 *     only when the welcome advertises them too
 * @param connectTimeout WebSocket open plus hello/welcome
 * @param callTimeout default reply timeout of every call ({@link AciClient#withTimeout} overrides)
 * @param validateOutgoing check every outgoing message against the bundled schema first
 */
public record AciClientOptions(
    String clientName,
    String clientVersion,
    String token,
    List<ObservationType> observationTypes,
    boolean binaryFrames,
    Duration connectTimeout,
    Duration callTimeout,
    boolean validateOutgoing) {
  public AciClientOptions {
    Objects.requireNonNull(clientName, "clientName");
    Objects.requireNonNull(clientVersion, "clientVersion");
    observationTypes = observationTypes == null ? null : List.copyOf(observationTypes);
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(callTimeout, "callTimeout");
    if (connectTimeout.isNegative() || connectTimeout.isZero() || callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
  }

  /** agentdesk's defaults: screenshots and screencasts, binary frames, 10 s to connect, 30 s per call. */
  public static AciClientOptions defaults() {
    return new AciClientOptions("agentdesk-sdk", "0.1.0", null,
        List.of(ObservationType.SCREENSHOT, ObservationType.SCREENCAST, ObservationType.A11Y), true,
        Duration.ofSeconds(10), Duration.ofSeconds(30), dev.agentdesk.aci.wire.WireContract.debugEnabled());
  }

  public AciClientOptions withToken(String value) {
    return new AciClientOptions(clientName, clientVersion, value, observationTypes, binaryFrames, connectTimeout,
        callTimeout, validateOutgoing);
  }

  public AciClientOptions withClient(String name, String version) {
    return new AciClientOptions(name, version, token, observationTypes, binaryFrames, connectTimeout, callTimeout,
        validateOutgoing);
  }

  public AciClientOptions withBinaryFrames(boolean value) {
    return new AciClientOptions(clientName, clientVersion, token, observationTypes, value, connectTimeout,
        callTimeout, validateOutgoing);
  }

  public AciClientOptions withConnectTimeout(Duration value) {
    return new AciClientOptions(clientName, clientVersion, token, observationTypes, binaryFrames, value, callTimeout,
        validateOutgoing);
  }

  public AciClientOptions withCallTimeout(Duration value) {
    return new AciClientOptions(clientName, clientVersion, token, observationTypes, binaryFrames, connectTimeout,
        value, validateOutgoing);
  }

  public AciClientOptions withValidateOutgoing(boolean value) {
    return new AciClientOptions(clientName, clientVersion, token, observationTypes, binaryFrames, connectTimeout,
        callTimeout, value);
  }
}
