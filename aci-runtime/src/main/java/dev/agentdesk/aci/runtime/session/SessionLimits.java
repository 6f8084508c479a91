package dev.agentdesk.aci.runtime.session;

import java.time.Duration;

/**
 * Per-connection limits. The defaults are the reference runtime's; tests shorten the timeouts.
 *
 * @param handshakeTimeout time from connect to a successful hello
 * @param idleTimeout time without a client message once authenticated
 * @param maxLifetime total connection lifetime
 * @param maxMessageBytes largest text message processed; larger ones are answered with
 *     {@code bad message: message too large} and the session continues
 */
public record SessionLimits(Duration handshakeTimeout, Duration idleTimeout, Duration maxLifetime,
    int maxMessageBytes) {
  public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(15);
  public static final Duration MAX_LIFETIME = Duration.ofHours(4);
  /** 8 MiB: room for a 1 MiB clipboard text even fully \\u-escaped, far below the transport limit. */
  public static final int MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
  /** What the WebSocket layer itself accepts; above this it closes with 1009 (message too big). */
  public static final int TRANSPORT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
  /** Wait verb cap. */
  public static final long MAX_WAIT_MS = 10_000;
  /** Downscale cap and the default long edge of screenshots. */
  public static final int MAX_LONG_EDGE = 2576;

  public static SessionLimits defaults() {
    return new SessionLimits(HANDSHAKE_TIMEOUT, IDLE_TIMEOUT, MAX_LIFETIME, MAX_MESSAGE_BYTES);
  }
}
