package dev.agentdesk.bench.parser;

import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes an agent-like terminal stream of any size to a file, for measuring tools that read whole
 * streams ({@code agentdesk term render}) at sizes no benchmark holds in memory: 4 MiB blocks of
 * {@link MixedAgentStream}, each from its own seed, so a gigabyte is not one block repeated.
 *
 * <p>{@code java -cp benchmarks.jar dev.agentdesk.bench.parser.AgentStreamFile FILE MIB [raw|tcap]}:
 * {@code raw} (the default) is the bytes as a program wrote them; {@code tcap} frames them as a
 * capture would, in output records of 1–64 KiB (PTY read sizes) 2 ms apart.
 */
public final class AgentStreamFile {
  private static final int BLOCK = 4 << 20;

  private AgentStreamFile() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: AgentStreamFile FILE MIB [raw|tcap]");
    }
    Path file = Path.of(args[0]);
    long total = Long.parseLong(args[1]) << 20;
    boolean tcap = args.length > 2 && args[2].equals("tcap");
    Random sizes = new Random(7);
    try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        TcapWriter capture = tcap ? TcapWriter.open(raw) : null) {
      long written = 0;
      long micros = 0;
      for (long seed = 100; written < total; seed++) {
        byte[] block = MixedAgentStream.build((int) Math.min(BLOCK, total - written), seed);
        if (capture == null) {
          raw.write(block);
        } else {
          for (int off = 0; off < block.length; ) {
            int len = Math.min(block.length - off, 1024 + sizes.nextInt(63 * 1024));
            capture.write(Direction.OUTPUT, micros, block, off, len);
            micros += 2_000;
            off += len;
          }
        }
        written += block.length;
      }
    }
  }
}
