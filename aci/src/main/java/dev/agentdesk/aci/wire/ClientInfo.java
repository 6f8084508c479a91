package dev.agentdesk.aci.wire;

/** {@code hello.client}: who is connecting. */
public record ClientInfo(String name, String version) {
  public ClientInfo {
    Check.required(name, "name");
    Check.required(version, "version");
  }
}
