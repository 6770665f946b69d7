package dev.canal.binlog.column;

import java.util.List;

/**
 * The after-image value of a JSON column logged as a partial update: the diffs to apply, in order, to the
 * before-image document.
 */
public record PartialJson(List<JsonDiff> diffs) {
}
