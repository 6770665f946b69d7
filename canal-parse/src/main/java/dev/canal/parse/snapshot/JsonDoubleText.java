package dev.canal.parse.snapshot;

/**
 * MySQL's JSON text as {@code SELECT} prints it, with each floating-point number rewritten the way the binlog
 * rows print it: Java's notation ({@code 1.0E22} where MySQL prints {@code 1e22}; docs/compatibility.md, "JSON
 * values on MySQL"). A number is floating-point when its text has a fraction or an exponent; strings are left alone.
 */
final class JsonDoubleText {

    private JsonDoubleText() {
    }

    static String of(String json) {
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '"') {
                i = afterString(json, i);
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                int end = i + 1;
                boolean floating = false;
                while (end < json.length() && isNumberChar(json.charAt(end))) {
                    char n = json.charAt(end);
                    floating |= n == '.' || n == 'e' || n == 'E';
                    end++;
                }
                if (floating) {
                    out = out == null ? new StringBuilder(json.length() + 8) : out;
                    out.append(json, copied, i).append(Double.parseDouble(json.substring(i, end)));
                    copied = end;
                }
                i = end;
            } else {
                i++;
            }
        }
        return out == null ? json : out.append(json, copied, json.length()).toString();
    }

    private static boolean isNumberChar(char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    }

    /** The index after the string literal opened at {@code start}. */
    private static int afterString(String json, int start) {
        int i = start + 1;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == '"') {
                return i + 1;
            } else {
                i++;
            }
        }
        return i;
    }
}
