package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.SessionRecord;
import java.nio.file.Path;

/** Collects session metadata over the lines of one read; every field follows {@link SessionRecord#absorb}'s rules. */
final class SessionAccumulator {
  String title;
  int titleRank;
  String firstPrompt;
  String project;
  String cwd;
  String gitBranch;
  String version;
  String startedAt;
  String endedAt;
  long messageCount;
  /** The parent session named by the lines themselves, for units whose path does not say it. */
  String parentSessionId;
  /** The agent's permission mode as last recorded in this read. */
  String permissionMode;
  /** The agent's own cost figures as last recorded in this read (cumulative: the last one stands). */
  RecordedCost recordedCost;

  void parentSessionId(String value) {
    if (parentSessionId == null && value != null && !value.isBlank()) {
      parentSessionId = value;
    }
  }

  void title(String text, int rank) {
    if (text != null && !text.isBlank() && rank >= titleRank) {
      title = text.strip();
      titleRank = rank;
    }
  }

  void firstPrompt(String text) {
    if (firstPrompt == null && text != null && !text.isBlank()) {
      String t = text.strip().replaceAll("\\s+", " ");
      firstPrompt = t.length() > 120 ? t.substring(0, 117) + "..." : t;
    }
  }

  void cwd(String value) {
    // Every line repeats the cwd; only a change needs the project name worked out again.
    if (value != null && !value.isBlank() && !value.equals(cwd)) {
      cwd = value;
      String trimmed = value.replaceAll("[/\\\\]+$", "");
      int cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
      project = cut >= 0 ? trimmed.substring(cut + 1) : trimmed;
    }
  }

  void gitBranch(String value) {
    if (value != null && !value.isBlank()) {
      gitBranch = value;
    }
  }

  void version(String value) {
    if (value != null && !value.isBlank()) {
      version = value;
    }
  }

  void seen(String canonicalTimestamp) {
    if (canonicalTimestamp == null) {
      return;
    }
    if (startedAt == null || canonicalTimestamp.compareTo(startedAt) < 0) {
      startedAt = canonicalTimestamp;
    }
    if (endedAt == null || canonicalTimestamp.compareTo(endedAt) > 0) {
      endedAt = canonicalTimestamp;
    }
  }

  SessionRecord toRecord(SourceUnit unit, boolean fromStart) {
    Path file = unit.file().toAbsolutePath().normalize();
    return new SessionRecord(unit.sessionId(), unit.provider().id(), title, titleRank, firstPrompt, project, cwd,
        gitBranch, version, startedAt, endedAt, messageCount, fromStart ? CountMode.TOTAL : CountMode.DELTA,
        file.toString(), unit.parentSessionId() != null ? unit.parentSessionId() : parentSessionId, permissionMode,
        recordedCost);
  }
}
