package dev.canal.parse.meta.history;

import dev.canal.parse.sql.SqlComments;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MySQL and MariaDB DDL text as Druid's MySQL parser reads it, with the same effect on the table's columns.
 *
 * <ul>
 * <li>{@link #executable}: the server runs the text of an executable comment ({@code /*!80023 INVISIBLE *}{@code /},
 * {@code /*!50100 PARTITION BY ... *}{@code /}, MariaDB's {@code /*M!100301 ... *}{@code /}), which Druid skips
 * as a comment; {@code ALTER TABLE t ADD a INT /*!, ADD b INT *}{@code /} adds two columns, not one. Comments
 * are expanded whatever their version: a statement in a source's binlog was written for that source.</li>
 * <li>{@link #withoutClausesDruidCannotRead}: the clauses MySQL 8/9 and MariaDB 10.5-11 accept that Druid 1.2
 * rejects and that change no column's name, type, order or charset: the column attributes {@code INVISIBLE},
 * {@code VISIBLE}, {@code SRID n}, {@code NOT SECONDARY} and MariaDB's {@code COMPRESSED}; the table options
 * {@code SECONDARY_ENGINE}, {@code AUTOEXTEND_SIZE}, {@code TABLESPACE}, {@code PAGE_COMPRESSED},
 * {@code PAGE_COMPRESSION_LEVEL}; MariaDB's index attribute {@code [NOT] IGNORED}, {@code CREATE OR REPLACE
 * TABLE} (Druid's CREATE of a known table replaces it) and {@code ADD ... IF NOT EXISTS} (Druid's ADD of a
 * column the table has is a no-op, which is what the clause asks).</li>
 * </ul>
 *
 * <p>What still cannot be read (legacy type synonyms such as {@code LONG VARBINARY}, MariaDB's {@code WITH SYSTEM
 * VERSIONING}, which adds hidden columns) is left to the schema history's fallback (docs/compatibility.md,
 * "Schema history").
 */
final class DdlText {

    /** Words that, right before INVISIBLE or VISIBLE, make it a column or index name, not an attribute. */
    private static final Set<String> BEFORE_A_NAME = Set.of("(", ",", ".", "ADD", "COLUMN", "CHANGE", "MODIFY", "DROP",
            "ALTER", "AFTER", "INDEX", "KEY", "TO", "AS", "CONSTRAINT", "SET", "ON", "TABLE", "RENAME", "=", "BY");
    /** Table options Druid rejects, each followed by an optional {@code =} and one value. */
    private static final Set<String> VALUED_OPTIONS = Set.of("SECONDARY_ENGINE", "AUTOEXTEND_SIZE", "TABLESPACE",
            "PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL");

    private DdlText() {
    }

    /** The text with every executable comment replaced by its content. */
    static String executable(String sql) {
        if (!sql.contains("/*!") && !sql.contains("/*M!")) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = quotedEnd(sql, i);
                out.append(sql, i, end);
                i = end;
            } else if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                int body = i + (sql.charAt(i + 2) == 'M' ? 4 : 3);
                while (body < n && Character.isDigit(sql.charAt(body))) {
                    body++; // the version the text needs
                }
                int close = sql.indexOf("*/", body);
                int end = close < 0 ? n : close;
                out.append(' ').append(sql, body, end).append(' ');
                i = close < 0 ? n : close + 2;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The text without the clauses Druid cannot read that change no column; the text itself when it has none. */
    static String withoutClausesDruidCannotRead(String sql) {
        List<Token> tokens = Token.scan(sql);
        boolean[] drop = new boolean[tokens.size()];
        for (int i = 0; i < tokens.size(); i++) {
            String word = tokens.get(i).keyword();
            String previous = i > 0 ? tokens.get(i - 1).keyword() : "";
            String next = i + 1 < tokens.size() ? tokens.get(i + 1).keyword() : "";
            boolean attribute = !BEFORE_A_NAME.contains(previous);
            switch (word) {
                case "INVISIBLE", "VISIBLE" -> drop[i] = attribute && !afterChange(tokens, i);
                case "SRID" -> dropIf(drop, i, 2, attribute && i + 1 < tokens.size() && tokens.get(i + 1).isNumber());
                case "SECONDARY" -> dropIf(drop, i - 1, 2, previous.equals("NOT"));
                case "IGNORED" -> dropIf(drop, previous.equals("NOT") ? i - 1 : i, previous.equals("NOT") ? 2 : 1,
                        attribute);
                case "COMPRESSED" -> drop[i] = attribute && !previous.equals("ROW_FORMAT")
                        && !previous.equals("COLUMN_FORMAT");
                case "OR" -> dropIf(drop, i, 2, i == 1 && previous.equals("CREATE") && next.equals("REPLACE")
                        && i + 2 < tokens.size() && Set.of("TABLE", "TEMPORARY").contains(tokens.get(i + 2).keyword()));
                case "IF" -> dropIf(drop, i, 3, next.equals("NOT") && i + 2 < tokens.size()
                        && tokens.get(i + 2).keyword().equals("EXISTS") && addsSomething(tokens, i));
                default -> {
                    int length = next.equals("=") ? 3 : 2;
                    if (VALUED_OPTIONS.contains(word) && (next.equals("=") || attribute) && i + length <= tokens.size()) {
                        dropIf(drop, i, length, true);
                        // an ALTER's options are items of a list: one comma goes with the option
                        if (previous.equals(",")) {
                            drop[i - 1] = true;
                        } else if (i + length < tokens.size() && tokens.get(i + length).keyword().equals(",")) {
                            drop[i + length] = true;
                        }
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (drop[i]) {
                out.append(sql, copied, tokens.get(i).start());
                copied = tokens.get(i).end();
            }
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    private static void dropIf(boolean[] drop, int from, int count, boolean condition) {
        if (condition) {
            for (int k = from; k < Math.min(drop.length, from + count); k++) {
                drop[k] = true;
            }
        }
    }

    /** {@code CHANGE [COLUMN] old new}: the token at {@code i} is the new name. */
    private static boolean afterChange(List<Token> tokens, int i) {
        int back = i - 2;
        if (back >= 0 && tokens.get(back).keyword().equals("COLUMN")) {
            back--;
        }
        return back >= 0 && tokens.get(back).keyword().equals("CHANGE");
    }

    /** {@code ADD [COLUMN | INDEX | KEY ...] IF NOT EXISTS}. */
    private static boolean addsSomething(List<Token> tokens, int i) {
        String previous = i > 0 ? tokens.get(i - 1).keyword() : "";
        String before = i > 1 ? tokens.get(i - 2).keyword() : "";
        return previous.equals("ADD") || before.equals("ADD");
    }

    private static int quotedEnd(String sql, int open) {
        char quote = sql.charAt(open);
        int i = open + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2; // a doubled quote stands for itself
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /** A word, quoted name or string, number or punctuation character of a statement; comments are skipped. */
    private record Token(String text, int start, int end, boolean quoted) {

        /** The token upper-cased if it is an unquoted word or punctuation, "" for a quoted name or string. */
        String keyword() {
            return quoted ? "" : text.toUpperCase(Locale.ROOT);
        }

        boolean isNumber() {
            return !quoted && !text.isEmpty() && Character.isDigit(text.charAt(0));
        }

        static List<Token> scan(String sql) {
            List<Token> tokens = new ArrayList<>();
            int i = 0;
            int n = sql.length();
            while (i < n) {
                char c = sql.charAt(i);
                int afterComment = SqlComments.skip(sql, i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (afterComment > i) {
                    i = afterComment;
                } else if (c == '\'' || c == '"' || c == '`') {
                    int end = quotedEnd(sql, i);
                    tokens.add(new Token(sql.substring(i, end), i, end, true));
                    i = end;
                } else if (isWordChar(c)) {
                    int start = i;
                    while (i < n && isWordChar(sql.charAt(i))) {
                        i++;
                    }
                    tokens.add(new Token(sql.substring(start, i), start, i, false));
                } else {
                    tokens.add(new Token(String.valueOf(c), i, i + 1, false));
                    i++;
                }
            }
            return tokens;
        }

        private static boolean isWordChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127;
        }
    }
}
