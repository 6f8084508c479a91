package dev.agentdesk.aci.wire;

import dev.agentdesk.aci.WireException;
import java.util.Base64;

/** One stdout/stderr chunk of a streamed exec (text form; the bytes are base64 in {@code dataB64}). */
public record ExecOutputMsg(String cause, long seq, Channel channel, String dataB64) implements AciMessage {
  public static final String TYPE = "exec_output";

  public ExecOutputMsg {
    Check.required(cause, "cause");
    Check.atLeast(seq, 0, "seq");
    Check.required(channel, "channel");
    Check.required(dataB64, "data_b64");
  }

  public static ExecOutputMsg of(String cause, long seq, Channel channel, byte[] data) {
    return new ExecOutputMsg(cause, seq, channel, Base64.getEncoder().encodeToString(data));
  }

  /** The chunk's raw bytes. The schema only says "string", so bad base64 surfaces here, typed. */
  public byte[] data() {
    try {
      return Base64.getDecoder().decode(dataB64);
    } catch (IllegalArgumentException e) {
      throw new WireException(WireException.Reason.INVALID_VALUE, "/data_b64", "not base64: " + e.getMessage(), e);
    }
  }

  @Override
  public String type() {
    return TYPE;
  }
}
