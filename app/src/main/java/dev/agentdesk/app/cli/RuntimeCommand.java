package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk runtime}: Run the ACI v0 guest runtime (a sandbox computer) on this machine's X display. */
@Command(name = "runtime", mixinStandardHelpOptions = true, description = "Run the ACI v0 guest runtime (a sandbox computer) on this machine's X display.")
public final class RuntimeCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk runtime' is not built yet in this version; see README.md for what works today");
  }
}
