package dev.agentdesk.aci.runtime.exec;

/** One streamed chunk; {@code seq} counts across both channels of one run, from 0. */
public record OutputChunk(long seq, Channel channel, byte[] data) {
  /** The child's output channel. */
  public enum Channel {
    STDOUT, STDERR;

    public String wire() {
      return this == STDOUT ? "stdout" : "stderr";
    }
  }
}
