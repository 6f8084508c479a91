package dev.agentdesk.transcripts;

import java.util.List;

/** A page of results and the number of matches in all pages. */
public record Page<T>(List<T> items, long total, int offset) {
  public Page {
    items = List.copyOf(items);
  }
}
