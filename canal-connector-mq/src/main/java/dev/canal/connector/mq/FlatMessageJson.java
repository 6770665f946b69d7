package dev.canal.connector.mq;

import dev.canal.binlog.column.JsonText;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes a flat message as Canal's canal-json bytes: fastjson2 with WriteNulls, so every
 * key is present, top-level keys in alphabetical order, column maps in column order, no spaces, UTF-8 text
 * unescaped. Strings escape {@code "} and {@code \}, the control characters b, f, n, r, t by their short form
 * and the other control characters as a lower-case six-character unicode escape.
 */
public final class FlatMessageJson {


    private FlatMessageJson() {
    }

    public static byte[] toBytes(FlatMessage m) {
        return toJson(m).getBytes(StandardCharsets.UTF_8);
    }

    public static String toJson(FlatMessage m) {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"data\":");
        rows(out, m.data());
        out.append(",\"database\":");
        string(out, m.database());
        out.append(",\"es\":").append(m.es());
        out.append(",\"gtid\":");
        string(out, m.gtid());
        out.append(",\"id\":").append(m.id());
        out.append(",\"isDdl\":").append(m.isDdl());
        out.append(",\"mysqlType\":");
        object(out, m.mysqlType());
        out.append(",\"old\":");
        rows(out, m.old());
        out.append(",\"pkNames\":");
        strings(out, m.pkNames());
        out.append(",\"sql\":");
        string(out, m.sql());
        out.append(",\"sqlType\":");
        object(out, m.sqlType());
        out.append(",\"table\":");
        string(out, m.table());
        out.append(",\"ts\":").append(m.ts());
        out.append(",\"type\":");
        string(out, m.type());
        if (m.snapshot()) {
            out.append(",\"snapshot\":true");
        }
        return out.append('}').toString();
    }

    private static void rows(StringBuilder out, List<Map<String, String>> rows) {
        if (rows == null) {
            out.append("null");
            return;
        }
        out.append('[');
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            object(out, rows.get(i));
        }
        out.append(']');
    }

    private static void object(StringBuilder out, Map<String, ?> map) {
        if (map == null) {
            out.append("null");
            return;
        }
        out.append('{');
        Iterator<? extends Map.Entry<String, ?>> it = map.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, ?> e = it.next();
            string(out, e.getKey());
            out.append(':');
            Object value = e.getValue();
            if (value instanceof Integer number) {
                out.append(number.intValue());
            } else {
                string(out, (String) value);
            }
            if (it.hasNext()) {
                out.append(',');
            }
        }
        out.append('}');
    }

    private static void strings(StringBuilder out, List<String> values) {
        if (values == null) {
            out.append("null");
            return;
        }
        out.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            string(out, values.get(i));
        }
        out.append(']');
    }

    private static void string(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
        } else {
            JsonText.appendQuoted(out, s);
        }
    }
}
