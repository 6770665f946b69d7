package dev.canal.parse.snapshot;

import java.util.ArrayList;
import java.util.List;

/**
 * The value of a row's primary key in the text form rows carry on the stream, one string per key column in key
 * order; snapshot rows and binlog rows are matched by it.
 */
record PrimaryKey(List<String> values) {

    PrimaryKey {
        values = List.copyOf(values);
    }

    /** The form stored with the snapshot progress: each value escaped, joined by commas. */
    String encode() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(values.get(i).replace("\\", "\\\\").replace(",", "\\,"));
        }
        return out.toString();
    }

    static PrimaryKey decode(String text) {
        List<String> values = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                current.append(text.charAt(++i));
            } else if (c == ',') {
                values.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        values.add(current.toString());
        return new PrimaryKey(values);
    }
}
