package dev.canal.parse.convert;

import dev.canal.binlog.column.JsonDiff;
import dev.canal.binlog.column.PartialJson;
import java.util.List;

/**
 * The value Canal gives a JSON column whose after image is a partial update ({@code binlog_row_value_options=
 * PARTIAL_JSON}): the diffs as one SQL expression over the column, e.g.
 * {@code JSON_INSERT(JSON_REPLACE(doc, '$.a', 2, '$.s', "new"), '$.c', true)} (docs/compatibility.md, "Partial JSON
 * updates"). Consecutive diffs of one function share a call; each function wraps the calls before it. An INSERT
 * whose path ends in an array index is {@code JSON_ARRAY_INSERT}; a REMOVE has no value.
 */
final class PartialJsonText {

    private PartialJsonText() {
    }

    static String of(PartialJson partial, String column) {
        List<JsonDiff> diffs = partial.diffs();
        StringBuilder text = new StringBuilder();
        for (int i = diffs.size() - 1; i >= 0; i--) {
            if (i == 0 || !function(diffs.get(i - 1)).equals(function(diffs.get(i)))) {
                text.append(function(diffs.get(i))).append('(');
            }
        }
        text.append(column);
        for (int i = 0; i < diffs.size(); i++) {
            JsonDiff diff = diffs.get(i);
            text.append(", '").append(diff.path()).append('\'');
            if (diff.operation() != JsonDiff.Operation.REMOVE) {
                text.append(", ").append(diff.value());
            }
            if (i == diffs.size() - 1 || !function(diffs.get(i + 1)).equals(function(diff))) {
                text.append(')');
            }
        }
        return text.toString();
    }

    private static String function(JsonDiff diff) {
        return switch (diff.operation()) {
            case REPLACE -> "JSON_REPLACE";
            case INSERT -> diff.path().endsWith("]") ? "JSON_ARRAY_INSERT" : "JSON_INSERT";
            case REMOVE -> "JSON_REMOVE";
        };
    }
}
