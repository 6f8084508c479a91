package dev.agentdesk.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version Maven wrote into {@code version.properties} at build time: one place for the CLI and the server. */
public final class AppVersion {
  private static final String RESOURCE = "/dev/agentdesk/app/version.properties";

  private AppVersion() {}

  /** e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when run from classes without the filtered resource. */
  public static String current() {
    try (InputStream in = AppVersion.class.getResourceAsStream(RESOURCE)) {
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
}
