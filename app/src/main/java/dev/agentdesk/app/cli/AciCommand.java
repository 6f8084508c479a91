package dev.agentdesk.app.cli;

import dev.agentdesk.app.aci.AciCommands;
import dev.agentdesk.app.aci.AciRecordCommands;
import dev.agentdesk.app.aci.AciSessionOptions;
import dev.agentdesk.app.aci.AciToolCall;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code agentdesk aci}: drive an ACI v0 runtime through the Java SDK. The connection options are
 * inherited, so they may stand before or after the subcommand's name
 * ({@code aci --json click 1 2} and {@code aci click 1 2 --json} are the same call).
 */
@Command(name = "aci", mixinStandardHelpOptions = true,
    description = "Drive an ACI v0 runtime: screenshots, input, exec, windows, clipboard, computer-use tool calls, record and replay.",
    subcommands = {
        AciCommands.Info.class, AciCommands.ScreenshotCmd.class, AciCommands.Click.class, AciCommands.Move.class,
        AciCommands.Drag.class, AciCommands.Scroll.class, AciCommands.Type.class, AciCommands.Key.class,
        AciCommands.Exec.class, AciCommands.Observe.class, AciCommands.Windows.class, AciCommands.Activate.class,
        AciCommands.Launch.class, AciCommands.Clipboard.class, AciToolCall.class,
        AciRecordCommands.Record.class, AciRecordCommands.Replay.class})
public final class AciCommand implements Runnable, AciSessionOptions {
  @Spec
  CommandSpec spec;

  @Option(names = "--url", scope = ScopeType.INHERIT, paramLabel = "ws://HOST:PORT",
      description = "The runtime's WebSocket URL (default: $AGENTDESK_ACI_URL, else ws://127.0.0.1:8765).")
  String url;

  @Option(names = "--token-file", scope = ScopeType.INHERIT, paramLabel = "FILE",
      description = "File holding the runtime's bearer token (default: $AGENTDESK_ACI_TOKEN).")
  Path tokenFile;

  @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "30000",
      description = "Reply timeout of each call in milliseconds (default: ${DEFAULT-VALUE}).")
  long timeoutMs;

  @Option(names = "--json", scope = ScopeType.INHERIT,
      description = "Print the raw wire messages (one JSON per line) instead of text.")
  boolean json;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public Path tokenFile() {
    return tokenFile;
  }

  @Override
  public long timeoutMs() {
    return timeoutMs;
  }

  @Override
  public boolean json() {
    return json;
  }

  @Override
  public RuntimeException userError(String message, Throwable cause) {
    return new UserError(message, cause);
  }
}
