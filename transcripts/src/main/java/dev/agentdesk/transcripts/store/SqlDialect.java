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
   * limit, returning session_id, kind, ref, snippet, rank (lower is better).
   */
  String searchSql();

  /** The engine's match expression for the user's words. */
  String matchExpression(List<String> words);
}
