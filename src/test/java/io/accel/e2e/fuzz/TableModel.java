package io.accel.e2e.fuzz;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rows of one own table as its only writer knows them: those committed, those its open transaction wrote, and
 * the tags of its transactions by outcome (committed, or abandoned: rolled back, failed, or left open). Once an
 * outcome could be either, the model says why it no longer knows the table and stops being checked.
 */
final class TableModel {
  record Row(int id, int grp, String val) {
  }

  /** A deleted row among the transaction's writes. */
  static final Row DELETED = new Row(-1, -1, "deleted");

  private final TreeMap<Integer, Row> committed = new TreeMap<>();
  private final Map<Integer, Row> pending = new HashMap<>();
  private final Set<String> committedTags = new HashSet<>();
  private final Set<String> abandonedTags = new HashSet<>();
  private String uncertain;

  void committed(Row row) {
    committed.put(row.id(), row);
  }

  /** The rows the open transaction sees: committed ones overlaid with its own writes. */
  TreeMap<Integer, Row> view() {
    TreeMap<Integer, Row> v = new TreeMap<>(committed);
    pending.forEach((id, row) -> {
      if (row == DELETED) {
        v.remove(id);
      } else {
        v.put(id, row);
      }
    });
    return v;
  }

  /** Rows written (or {@link #DELETED}) by the open transaction. */
  void write(Map<Integer, Row> rows) {
    pending.putAll(rows);
  }

  int written() {
    return pending.size();
  }

  /** The open transaction, tagged {@code tag}, committed. */
  void commit(String tag) {
    pending.forEach((id, row) -> {
      if (row == DELETED) {
        committed.remove(id);
      } else {
        committed.put(id, row);
      }
    });
    pending.clear();
    committedTags.add(tag);
  }

  /** The open transaction, tagged {@code tag} (null when it never began), will never commit. */
  void abandon(String tag) {
    if (tag != null) {
      abandonedTags.add(tag);
    }
    pending.clear();
  }

  /** The open transaction may or may not have committed. */
  void unknownOutcome(String why) {
    pending.clear();
    markUncertain(why);
  }

  void markUncertain(String why) {
    if (uncertain == null) {
      uncertain = why;
    }
  }

  /** Why the model no longer knows the table's rows; null while it does. */
  String uncertain() {
    return uncertain;
  }

  List<Row> committedRows() {
    return List.copyOf(committed.values());
  }

  Set<String> committedTags() {
    return committedTags;
  }

  Set<String> abandonedTags() {
    return abandonedTags;
  }
}
