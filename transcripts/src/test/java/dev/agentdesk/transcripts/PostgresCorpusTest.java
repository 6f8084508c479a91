package dev.agentdesk.transcripts;

import dev.agentdesk.testkit.PostgresExtension;
import dev.agentdesk.testkit.PostgresServer;
import dev.agentdesk.testkit.SharedCorpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every invariant on every file of the shared corpus (Claude Code and Codex), stored in PostgreSQL:
 * persisted detail == fresh parse, importing twice == once, appended pieces == whole, usage.
 * Each history is a new schema of one private cluster.
 */
@ExtendWith(PostgresExtension.class)
class PostgresCorpusTest {
  static Stream<Arguments> corpusFiles() throws IOException {
    return Stream.concat(ClaudeCorpusTest.claudeFiles().map(f -> Arguments.of(Provider.CLAUDE, f)),
        CodexCorpusTest.codexFiles().map(f -> Arguments.of(Provider.CODEX, f)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("corpusFiles")
  void invariantsHoldOnPostgres(Provider provider, String relative, @TempDir Path work, PostgresServer pg)
      throws IOException {
    Invariants.check(provider, SharedCorpus.require("corpus/transcripts/" + relative), work,
        sqliteFile -> TranscriptHistory.openUrl(pg.createSchema()));
  }
}
