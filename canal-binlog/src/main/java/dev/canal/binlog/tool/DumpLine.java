package dev.canal.binlog.tool;

import java.util.Locale;

/**
 * One output line of binlog-dump as ordered key/value fields: {@code key=value} pairs in text mode, one JSON
 * object in JSON mode. Strings are quoted and escaped in both modes (single quotes in text, JSON escapes in JSON).
 */
final class DumpLine {

    private final boolean json;
    private final StringBuilder sb = new StringBuilder(128);
    private boolean empty = true;

    DumpLine(boolean json) {
        this.json = json;
        if (json) {
            sb.append('{');
        }
    }

    boolean json() {
        return json;
    }

    /** The event type and position lead every line; in text mode without keys. */
    DumpLine lead(String type, String file, String position, long timestamp) {
        if (json) {
            str("type", type).str("file", file).raw("position", position.contains("#") ? quote(position) : position)
                    .raw("timestamp", Long.toString(timestamp));
        } else {
            sb.append(type).append(' ').append(file).append(':').append(position).append(' ')
                    .append(java.time.Instant.ofEpochSecond(timestamp));
            empty = false;
        }
        return this;
    }

    DumpLine str(String key, String value) {
        return raw(key, value == null ? "null" : quote(value));
    }

    DumpLine num(String key, long value) {
        return raw(key, Long.toString(value));
    }

    DumpLine bool(String key, boolean value) {
        return raw(key, Boolean.toString(value));
    }

    /** A value already in the mode's syntax. */
    DumpLine raw(String key, String value) {
        if (json) {
            sb.append(empty ? "" : ",").append('"').append(key).append("\":").append(value);
        } else {
            sb.append(empty ? "" : " ").append(key).append('=').append(value);
        }
        empty = false;
        return this;
    }

    String quote(String s) {
        char q = json ? '"' : '\'';
        StringBuilder out = new StringBuilder(s.length() + 2).append(q);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == q || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch == '\n') {
                out.append("\\n");
            } else if (ch == '\r') {
                out.append("\\r");
            } else if (ch == '\t') {
                out.append("\\t");
            } else if (ch < 0x20) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        return out.append(q).toString();
    }

    @Override
    public String toString() {
        return json ? sb + "}" : sb.toString();
    }
}
