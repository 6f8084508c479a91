package dev.agentdesk.aci.wire;

/**
 * The JSON header of a binary exec-output frame (schema {@code BinaryExecOutputHeader}): the
 * chunk's raw bytes are {@code data} of the payload area. Never a text message.
 */
public record BinaryExecOutputHeader(String cause, long seq, Channel channel, ByteRange data) {
  public static final String TYPE = "exec_output";

  public BinaryExecOutputHeader {
    Check.required(cause, "cause");
    Check.atLeast(seq, 0, "seq");
    Check.required(channel, "channel");
    Check.required(data, "data");
  }
}
