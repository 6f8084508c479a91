package dev.agentdesk.aci.wire;

/** The runtime's answer to a good hello: who it is and what it can do. v is always 0. */
public record Welcome(ServerInfo server, Capabilities capabilities) implements AciMessage {
  public static final String TYPE = "welcome";

  public Welcome {
    Check.required(server, "server");
    Check.required(capabilities, "capabilities");
  }

  @Override
  public String type() {
    return TYPE;
  }

  public int v() {
    return 0;
  }
}
