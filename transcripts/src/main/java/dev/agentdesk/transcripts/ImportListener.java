package dev.agentdesk.transcripts;

import java.nio.file.Path;

/** Progress of an import; called on the importing thread. */
public interface ImportListener {
  /** Before any file is read: how many files and bytes the import will look at. */
  default void started(int files, long bytes) {}

  /** After each stored batch: bytes done so far over all files. */
  default void progress(long bytesDone, long bytesTotal, Path file) {}

  /** A line was skipped. */
  default void problem(LineProblem problem) {}

  ImportListener NONE = new ImportListener() {};
}
