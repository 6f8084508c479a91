package dev.agentdesk.transcripts.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * What differs between database engines: connection setup, schema scripts (the full-text index
 * above all), the search statement, and a few hooks around migrations and write transactions.
 * Everything else the store writes is portable SQL ({@code INSERT ... ON CONFLICT ... DO UPDATE},
 * plain selects).
 */
sealed interface SqlDialect permits SqliteDialect, PostgresDialect {

  /** Driver properties for a new connection (the URL's own parameters win over them). */
  default Properties connectionProperties() {
    return new Properties();
  }

  /** A new connection to {@code url} (the driver found by {@link DriverManager}, by default). */
  default Connection connect(String url) throws SQLException {
    return DriverManager.getConnection(url, connectionProperties());
  }

  /** Added to the message of a database that cannot be opened: what the user should check. */
  default String openFailureAdvice() {
    return "";
  }

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

  /**
   * {@code s} as a text column of this engine can hold it; unchanged by default. Packed fields are
   * bytes and keep every character either way.
   */
  default String storableText(String s) {
    return s;
  }

  /** The text handed to the index statement for a document's body (the body as stored, by default). */
  default String indexedBody(String body) {
    return body;
  }

  /**
   * Runs after migration script {@code version} (1-based), inside its transaction: data changes a
   * script cannot express. Nothing by default.
   */
  default void afterMigration(int version, Connection c) throws SQLException {}

  /** Runs before migrations are looked at (a lock against a second process migrating at once). */
  default void beforeMigrations(Connection c) throws SQLException {}

  /** Runs after migrations, also when they failed (releases what {@link #beforeMigrations} took). */
  default void afterMigrations(Connection c) throws SQLException {}

  /**
   * Runs first in every write transaction, before the writer reads the next free row ids: where
   * several processes may write one database, this is where they take turns.
   */
  default void beginWrite(Connection c) throws SQLException {}

  /**
   * The rowid bound when a record is upserted into a document table: a new row gets the writer's id;
   * a stored row (the upsert updates it in place and never changes its rowid) gets NULL by default,
   * since SQLite would check an explicit rowid against the row itself before the upsert target.
   */
  default Long upsertRowid(long rowid, boolean storedBefore) {
    return storedBefore ? null : rowid;
  }

  /** An ORDER BY term: {@code column} descending with NULLs after every value (SQLite's order). */
  default String descendingNullsLast(String column) {
    return column + " DESC";
  }
}
