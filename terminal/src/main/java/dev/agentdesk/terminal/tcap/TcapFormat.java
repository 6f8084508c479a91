package dev.agentdesk.terminal.tcap;

import java.nio.charset.StandardCharsets;

/**
 * The .tcap capture layout, in one place.
 *
 * <pre>
 *   file   := magic record*
 *   magic  := "TUICCAP1" LF                      (9 bytes)
 *   record := direction:u8                       0 = output (PTY → screen), 1 = input (keys → PTY)
 *             elapsed_us:u64 little-endian       microseconds since the capture started, never decreasing
 *             length:u32 little-endian           payload size
 *             payload:byte[length]
 * </pre>
 *
 * A file that does not start with the magic is a legacy {@code .raw} capture: its whole content
 * is one output record at time 0.
 */
final class TcapFormat {
  static final byte[] MAGIC = "TUICCAP1\n".getBytes(StandardCharsets.US_ASCII);
  static final int HEADER_BYTES = 1 + 8 + 4;
  /**
   * Largest payload accepted in one record. A PTY read is at most a few hundred KiB; a larger
   * length means a corrupt file, and refusing it avoids allocating gigabytes on garbage.
   */
  static final int MAX_PAYLOAD = 64 * 1024 * 1024;

  private TcapFormat() {}
}
