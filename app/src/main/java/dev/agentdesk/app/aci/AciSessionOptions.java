package dev.agentdesk.app.aci;

import java.nio.file.Path;

/** The options of {@code agentdesk aci} that every subcommand's session needs. */
public interface AciSessionOptions {
  /** The --url value, or null. */
  String url();

  /** The --token-file value, or null. */
  Path tokenFile();

  long timeoutMs();

  boolean json();

  /** A user-fixable error of the CLI (exit 2). */
  RuntimeException userError(String message, Throwable cause);
}
