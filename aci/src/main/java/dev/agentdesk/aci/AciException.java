package dev.agentdesk.aci;

/**
 * Root of every exception the {@code aci} module throws. Each subclass carries a machine-readable
 * reason enum so callers (the runtime, the CLI) can branch without parsing messages.
 */
public abstract sealed class AciException extends RuntimeException permits WireException, AciClientException {
  private static final long serialVersionUID = 1L;

  AciException(String message, Throwable cause) {
    super(message, cause);
  }
}
