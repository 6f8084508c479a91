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
 * Every invariant on every file of the shared corpus (all six providers), stored in PostgreSQL:
 * persisted detail == fresh parse, importing twice == once, appended pieces == whole, usage.
 * Each history is a new schema of one private cluster.
 */
@ExtendWith(PostgresExtension.class)
class PostgresCorpusTest {
  static Stream<Arguments> corpusFiles() throws IOException {
    return Stream.concat(Stream.concat(ClaudeCorpusTest.claudeFiles().map(f -> Arguments.of(Provider.CLAUDE, f)),
        CodexCorpusTest.codexFiles().map(f -> Arguments.of(Provider.CODEX, f))), ProviderCorpusTest.files());
  }

  @org.junit.jupiter.api.Test
  void openCodeStorageAndDatabaseOnPostgres(@TempDir Path work, PostgresServer pg) throws Exception {
    Path base = SharedCorpus.require("corpus/transcripts/agent-sessions/stage0/agents/opencode");
    Invariants.checkSource(Provider.OPENCODE, base.resolve("storage_v2"), work.resolve("v2"),
        f -> TranscriptHistory.openUrl(pg.createSchema()));
    Invariants.checkSource(Provider.OPENCODE, base.resolve("storage_legacy"), work.resolve("legacy"),
        f -> TranscriptHistory.openUrl(pg.createSchema()));
    Path db = OpenCodeTest.database(java.nio.file.Files.createDirectories(work.resolve("db")));
    Invariants.checkSource(Provider.OPENCODE, db, work.resolve("inv"), f -> TranscriptHistory.openUrl(pg.createSchema()));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("corpusFiles")
  void invariantsHoldOnPostgres(Provider provider, String relative, @TempDir Path work, PostgresServer pg)
      throws IOException {
    Invariants.check(provider, SharedCorpus.require("corpus/transcripts/" + relative), work,
        sqliteFile -> TranscriptHistory.openUrl(pg.createSchema()));
  }
}
