package dev.agentdesk.transcripts.assemble;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Table-shaped rows of one session as stored: for each table its column names and its rows (values
 * String, Long or null, in column order). The column names are those of the store's schema.
 */
public record TableRows(Map<String, Table> tables) {
  public TableRows {
    tables = Map.copyOf(tables);
  }

  /** One table's rows. */
  public record Table(List<String> columns, List<Object[]> rows) {
    public Table {
      columns = List.copyOf(columns);
      rows = List.copyOf(rows);
    }

    /** Column name to index. */
    public Map<String, Integer> index() {
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        m.put(columns.get(i), i);
      }
      return m;
    }
  }

  public Table table(String name) {
    return tables.getOrDefault(name, new Table(List.of(), List.of()));
  }
}
