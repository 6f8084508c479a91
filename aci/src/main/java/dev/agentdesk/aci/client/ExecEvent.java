package dev.agentdesk.aci.client;

import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.aci.wire.ExecExitMsg;
import java.util.Arrays;

/** One event of a streamed exec: output chunks in order, then exactly one exit. */
public sealed interface ExecEvent permits ExecEvent.Chunk, ExecEvent.Exit {
  /** Raw bytes of stdout or stderr; {@code seq} orders chunks across both channels. */
  record Chunk(long seq, Channel channel, byte[] data) implements ExecEvent {
    public Chunk {
      data = data.clone();
    }

    @Override
    public byte[] data() {
      return data.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Chunk c && c.seq == seq && c.channel == channel && Arrays.equals(c.data, data);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(seq) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
      return "Chunk[seq=" + seq + ", " + channel.wire() + ", " + data.length + " bytes]";
    }
  }

  /** The terminal event. */
  record Exit(ExecExitMsg exit) implements ExecEvent {}
}
