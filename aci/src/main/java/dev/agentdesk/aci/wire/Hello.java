package dev.agentdesk.aci.wire;

/** The client's opening message; {@code accept} and {@code token} may be null (absent). v is always 0. */
public record Hello(ClientInfo client, Accept accept, String token) implements AciMessage {
  public static final String TYPE = "hello";

  public Hello {
    Check.required(client, "client");
  }

  @Override
  public String type() {
    return TYPE;
  }

  /** The protocol version; this model speaks only v0. */
  public int v() {
    return 0;
  }
}
