package dev.canal.parse.sql;

/** Where a MySQL comment that starts at some point of a statement's text ends, for the scanners that skip them. */
public final class SqlComments {

    private SqlComments() {
    }

    /**
     * The index just after the comment starting at {@code i}: {@code /* ... *}{@code /}, or {@code -- } (two dashes
     * and a space or control character, as MySQL requires) or {@code #} to the end of the line; {@code i} itself when
     * no comment starts there.
     */
    public static int skip(String sql, int i) {
        int n = sql.length();
        if (sql.startsWith("/*", i)) {
            int close = sql.indexOf("*/", i + 2);
            return close < 0 ? n : close + 2;
        }
        boolean dashes = sql.startsWith("--", i) && (i + 2 == n || sql.charAt(i + 2) <= ' ');
        if (dashes || i < n && sql.charAt(i) == '#') {
            int eol = sql.indexOf('\n', i);
            return eol < 0 ? n : eol + 1;
        }
        return i;
    }
}
