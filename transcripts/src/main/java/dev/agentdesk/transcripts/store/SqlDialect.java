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
   * A query over the full-text index with one parameter for the match expression and one for the
   * limit, returning session_id, kind, ref, rank (lower is better).
   */
  String searchSql();

  /**
   * Statements that index one document: the first records (id, session_id, kind, ref) and updates
   * no row when the id exists; the second inserts (id, body) into the index; the third deletes the
   * indexed body of an id.
   */
  List<String> indexDocumentSql();

  /** Statements that remove a session's documents; each takes the session id. */
  List<String> deleteSessionDocumentsSql();

  /** The engine's match expression for the user's words. */
  String matchExpression(List<String> words);
}
