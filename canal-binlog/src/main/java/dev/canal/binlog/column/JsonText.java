package dev.canal.binlog.column;

/**
 * JSON string literals as Canal's JSON writers print them: quote, backslash and the short escapes
 * ({@code \b \f \n \r \t}) escaped, other control characters as {@code \}{@code u00xx}, everything else
 * (non-ASCII included) kept as is. Shared by the JSON rendering of binlog JSON values and by flat messages.
 */
public final class JsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {
    }

    /** Appends {@code s} as a quoted JSON string. */
    public static void appendQuoted(StringBuilder out, CharSequence s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
