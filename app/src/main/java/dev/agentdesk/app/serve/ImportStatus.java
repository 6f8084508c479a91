package dev.agentdesk.app.serve;

import java.util.List;

/**
 * Where the history import stands, as the UI and {@code GET /api/history/import} show it.
 *
 * @param phase idle (nothing started), scanning, importing, tailing (first pass done, watching), failed
 * @param roots the folders imported, each with whether it exists
 */
public record ImportStatus(
    String phase,
    List<Root> roots,
    int files_total,
    int files_done,
    long records,
    int errors,
    String last_error,
    String database) {

  /** One folder the server imports and tails. */
  public record Root(String provider, String path, boolean exists) {}
}
