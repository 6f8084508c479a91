package dev.agentdesk.testkit.model;

import java.util.ArrayList;
import java.util.List;

/** How a streamed text is cut into deltas, and the pause before each: shared by the dialects. */
final class Pieces {
  private Pieces() {}

  /** {@code text} in at most {@code chunks} pieces of about equal length (one empty piece for ""). */
  static List<String> of(String text, int chunks) {
    List<String> l = new ArrayList<>();
    int n = Math.max(1, Math.min(chunks, text.length()));
    int size = Math.max(1, (text.length() + n - 1) / n);
    for (int i = 0; i < text.length(); i += size) {
      l.add(text.substring(i, Math.min(text.length(), i + size)));
    }
    if (l.isEmpty()) {
      l.add("");
    }
    return l;
  }

  static void pause(Reply.Message msg) throws InterruptedException {
    if (!msg.pause().isZero()) {
      Thread.sleep(msg.pause().toMillis());
    }
  }
}
