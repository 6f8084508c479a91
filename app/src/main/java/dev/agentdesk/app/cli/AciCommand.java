package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk aci}: Drive an ACI v0 runtime: screenshots, input, exec, windows, clipboard. */
@Command(name = "aci", mixinStandardHelpOptions = true, description = "Drive an ACI v0 runtime: screenshots, input, exec, windows, clipboard.")
public final class AciCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk aci' is not built yet in this version; see README.md for what works today");
  }
}
