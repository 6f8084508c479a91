package dev.agentdesk.app.aci;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Streamed exec chunks to a text writer. A chunk may end inside a multi-byte character, so the
 * decoder keeps the tail for the next chunk instead of replacing half a character.
 */
final class Utf8Sink {
  private final PrintWriter out;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
  private ByteBuffer pending = ByteBuffer.allocate(0);

  Utf8Sink(PrintWriter out) {
    this.out = out;
  }

  void write(byte[] chunk) {
    ByteBuffer in = ByteBuffer.allocate(pending.remaining() + chunk.length);
    in.put(pending).put(chunk).flip();
    CharBuffer chars = CharBuffer.allocate(in.remaining() + 1);
    decoder.decode(in, chars, false);
    chars.flip();
    out.append(chars);
    out.flush();
    pending = in.slice();
  }

  void finish() {
    CharBuffer chars = CharBuffer.allocate(pending.remaining() + 2);
    decoder.decode(pending, chars, true);
    decoder.flush(chars);
    chars.flip();
    out.append(chars);
    out.flush();
  }
}
