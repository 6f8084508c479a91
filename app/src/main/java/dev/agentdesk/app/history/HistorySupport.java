package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.TranscriptHistory;
import java.util.function.Function;

/** Shared plumbing of the history subcommands: opening the database and turning typed errors into user errors. */
final class HistorySupport {
  private HistorySupport() {}

  static <T> T withHistory(DbOption own, HistoryCommand parent, Function<TranscriptHistory, T> body) {
    DbOption.Target db = DbOption.resolve(own, parent == null ? null : parent.db);
    try (TranscriptHistory h = db.url() != null ? TranscriptHistory.openUrl(db.url()) : TranscriptHistory.open(db.file())) {
      return body.apply(h);
    } catch (TranscriptException e) {
      throw translate(e);
    }
  }

  static RuntimeException translate(TranscriptException e) {
    return switch (e.reason()) {
      case STORE_FAILURE, INCOMPLETE_STREAM -> e;
      default -> new UserError(e.getMessage(), e);
    };
  }

  static String nz(String s) {
    return s == null ? "" : s;
  }

  static String shorten(String s, int max) {
    if (s == null) {
      return "";
    }
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() <= max ? one : one.substring(0, Math.max(0, max - 1)) + "…";
  }
}
