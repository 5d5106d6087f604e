package io.accel.catalog;

/** One key column of an index: the ordinal of the table column, and its direction. */
public record IndexColumn(int column, boolean descending) {
}
