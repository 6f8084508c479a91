package dev.agentdesk.app.cli;

import dev.agentdesk.app.AppVersion;
import picocli.CommandLine;

/** {@code agentdesk --version}: the build's version and the Java running it. */
final class VersionProvider implements CommandLine.IVersionProvider {
  static String version() {
    return AppVersion.current();
  }

  @Override
  public String[] getVersion() {
    return new String[] {
        "agentdesk " + version(),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
