package dev.agentdesk.aci.recording;

import java.nio.file.Path;

/** A recorder that writes observations until it is killed (for the crash-safety test). */
public final class RecorderChild {
  private RecorderChild() {}

  public static void main(String[] args) {
    RecordingWriter w = RecordingWriter.open(Path.of(args[0]), RecordingWriter.Limits.defaults());
    int c = w.connectionOpened();
    for (int i = 0; ; i++) {
      byte[] img = new byte[64];
      img[0] = (byte) i;
      img[1] = (byte) (i >> 8);
      img[2] = (byte) (i >> 16);
      w.text(c, Direction.RUNTIME_TO_CLIENT, RecordingWriterTest.observation("o" + i, String.format("%08x", i), img));
    }
  }
}
