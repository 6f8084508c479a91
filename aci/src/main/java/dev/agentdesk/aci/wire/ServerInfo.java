package dev.agentdesk.aci.wire;

/** {@code welcome.server}: which runtime answered, on which guest platform. */
public record ServerInfo(String name, String version, Platform platform) {
  public ServerInfo {
    Check.required(name, "name");
    Check.required(version, "version");
    Check.required(platform, "platform");
  }
}
