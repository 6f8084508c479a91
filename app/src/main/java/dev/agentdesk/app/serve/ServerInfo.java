package dev.agentdesk.app.serve;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version Maven wrote into the jar. */
public final class ServerInfo {
  private ServerInfo() {}

  public static String version() {
    try (InputStream in = ServerInfo.class.getResourceAsStream("/dev/agentdesk/app/version.properties")) {
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
