package dev.agentdesk.aci.wire;

/**
 * A top-level ACI v0 text message, discriminated on the wire by {@code type}. The set is closed:
 * exactly the eleven members of the schema's top-level {@code oneOf}.
 */
public sealed interface AciMessage
    permits Hello, Welcome, Ping, Pong, Query, Result, ActionMsg, Ack, ObservationMsg, ExecOutputMsg, ExecExitMsg {
  /** The wire {@code type} discriminator of this message. */
  String type();
}
