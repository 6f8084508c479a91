package dev.agentdesk.transcripts.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between database engines: connection setup, schema scripts (the full-text index
 * above all) and the search statement. Everything else the store writes is portable SQL
 * ({@code INSERT ... ON CONFLICT ... DO UPDATE}, plain selects).
 */
sealed interface SqlDialect permits SqliteDialect {

  /** Applies per-connection settings. */
  void configure(Connection c) throws SQLException;

  /** Schema scripts; element {@code i} migrates version {@code i} to {@code i + 1}. */
  List<String> migrations();

  /**
   * A query over the full-text index returning (document id, rank), lower rank first. Parameters:
   * the match expression, then one session-filter value for each non-null filter column (in the
   * order source, project, id), then the limit. {@code filterColumns} names the {@code sessions}
   * columns to filter on; empty means no filter.
   */
  String searchSql(List<String> filterColumns);

  /**
   * Statements over the index: the first inserts (document id, body), the second deletes the
   * indexed body of a document id (deleting an id that is not indexed changes nothing).
   */
  List<String> indexDocumentSql();

  /** A statement that removes the documents of a session's rows; it takes the session id once per document table. */
  String deleteSessionDocumentsSql();

  /** The engine's match expression for the user's words. */
  String matchExpression(List<String> words);
}
