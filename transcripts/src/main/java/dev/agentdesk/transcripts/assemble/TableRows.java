package dev.agentdesk.transcripts.assemble;

import java.util.List;
import java.util.Map;

/**
 * Table-shaped rows of one session as stored: table name to rows, each row column name to value
 * (String, Long or null). The column names are those of the store's schema.
 */
public record TableRows(Map<String, List<Map<String, Object>>> tables) {
  public TableRows {
    tables = Map.copyOf(tables);
  }

  public List<Map<String, Object>> rows(String table) {
    return tables.getOrDefault(table, List.of());
  }
}
