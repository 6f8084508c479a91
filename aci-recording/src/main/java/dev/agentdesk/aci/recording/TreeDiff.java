package dev.agentdesk.aci.recording;

import java.util.List;

/**
 * A line diff of two tree_text renderings: null when equal, else the lines only the recording has
 * ({@code - }) and only the replay has ({@code + }), in order, common prefix and suffix left out.
 */
final class TreeDiff {
  private TreeDiff() {}

  static String of(String recorded, String replayed) {
    if (recorded.equals(replayed)) {
      return null;
    }
    List<String> a = recorded.lines().toList();
    List<String> b = replayed.lines().toList();
    int head = 0;
    while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) {
      head++;
    }
    int tail = 0;
    while (tail < a.size() - head && tail < b.size() - head
        && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) {
      tail++;
    }
    StringBuilder sb = new StringBuilder();
    for (String l : a.subList(head, a.size() - tail)) {
      sb.append("- ").append(l).append('\n');
    }
    for (String l : b.subList(head, b.size() - tail)) {
      sb.append("+ ").append(l).append('\n');
    }
    return sb.toString();
  }
}
