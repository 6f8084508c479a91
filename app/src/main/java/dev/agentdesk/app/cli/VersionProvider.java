package dev.agentdesk.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven wrote into {@code version.properties} at build time. */
final class VersionProvider implements CommandLine.IVersionProvider {
  static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/agentdesk/app/version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {
        "agentdesk " + version(),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
