package dev.canal.parse.convert;

import dev.canal.parse.convert.StatementKind.Category;
import dev.canal.parse.sql.SqlComments;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Classifies a QUERY event's statement by tokenizing its head: comments skipped, identifiers unquoted,
 * keywords compared case-insensitively. Only the leading clause matters for Canal's entry kinds.
 */
public final class StatementClassifier {

    private static final int HEAD_TOKENS = 12;
    /** RENAME TABLE lists any number of pairs, and the filter looks at each of them. */
    private static final int RENAME_TOKENS = 4096;

    private StatementClassifier() {
    }

    public static StatementKind classify(String sql, String defaultSchema) {
        Tokens t = new Tokens(sql, HEAD_TOKENS);
        String first = t.keyword(0);
        return switch (first) {
            case "BEGIN" -> StatementKind.of(Category.BEGIN);
            case "START" -> t.keyword(1).equals("TRANSACTION") ? StatementKind.of(Category.BEGIN) : other();
            case "COMMIT" -> StatementKind.of(Category.COMMIT);
            case "XA" -> xa(sql, t);
            case "CREATE" -> create(t, defaultSchema);
            case "ALTER" -> alter(t, defaultSchema);
            case "DROP" -> drop(t, defaultSchema);
            case "RENAME" -> t.keyword(1).equals("TABLE") ? rename(new Tokens(sql, RENAME_TOKENS), defaultSchema) : other();
            case "TRUNCATE" -> {
                int at = t.keyword(1).equals("TABLE") ? 2 : 1;
                yield table(EventType.TRUNCATE, t, at, defaultSchema);
            }
            case "INSERT", "REPLACE" -> dml(EventType.INSERT, defaultSchema);
            case "UPDATE" -> dml(EventType.UPDATE, defaultSchema);
            case "DELETE" -> dml(EventType.DELETE, defaultSchema);
            default -> other();
        };
    }

    private static StatementKind xa(String sql, Tokens t) {
        Category category = switch (t.keyword(1)) {
            case "START", "BEGIN" -> Category.XA_START;
            case "END" -> Category.XA_END;
            case "COMMIT" -> Category.XA_COMMIT;
            case "ROLLBACK" -> Category.XA_ROLLBACK;
            default -> Category.OTHER;
        };
        String xid = t.textAfter(sql, 1);
        EventType type = category == Category.XA_COMMIT ? EventType.XACOMMIT
                : category == Category.XA_ROLLBACK ? EventType.XAROLLBACK : null;
        return new StatementKind(category, type, "", "", xid);
    }

    private static StatementKind create(Tokens t, String defaultSchema) {
        int at = 1;
        if (t.keyword(at).equals("OR") && t.keyword(at + 1).equals("REPLACE")) {
            // MariaDB's CREATE OR REPLACE TABLE replaces a table's definition; views and routines are no DDL of ours
            if (!t.keyword(at + 2).equals("TABLE") && !t.keyword(at + 2).equals("TEMPORARY")) {
                return other();
            }
            at += 2;
        }
        if (t.keyword(at).equals("TEMPORARY")) {
            at++;
        }
        return switch (t.keyword(at)) {
            case "TABLE" -> table(EventType.CREATE, t, skipIfNotExists(t, at + 1), defaultSchema);
            case "DATABASE", "SCHEMA" -> database(t, skipIfNotExists(t, at + 1));
            case "UNIQUE", "FULLTEXT", "SPATIAL" -> t.keyword(at + 1).equals("INDEX") ? indexOn(EventType.CINDEX, t, at + 2, defaultSchema) : other();
            case "INDEX" -> indexOn(EventType.CINDEX, t, at + 1, defaultSchema);
            default -> other();
        };
    }

    private static StatementKind alter(Tokens t, String defaultSchema) {
        int at = 1;
        if (t.keyword(at).equals("ONLINE") || t.keyword(at).equals("IGNORE")) {
            at++;
        }
        if (t.keyword(at).equals("DATABASE") || t.keyword(at).equals("SCHEMA")) {
            return database(t, at + 1);
        }
        if (!t.keyword(at).equals("TABLE")) {
            return other();
        }
        int nameAt = skipIfExists(t, at + 1);
        String[] name = t.qualifiedName(nameAt, defaultSchema);
        int spec = nameAt + t.nameLength(nameAt);
        if (t.keyword(spec).equals("RENAME") && !isColumnOrIndex(t.keyword(spec + 1))) {
            boolean toOrAs = t.keyword(spec + 1).equals("TO") || t.keyword(spec + 1).equals("AS");
            String[] to = t.qualifiedName(toOrAs ? spec + 2 : spec + 1, defaultSchema);
            // the entry names the new table, as Canal's does (and as for RENAME TABLE)
            return new StatementKind(Category.DDL, EventType.RENAME, to[0], to[1], null,
                    List.of(new StatementKind.Rename(name[0], name[1], to[0], to[1])));
        }
        EventType type = switch (t.keyword(spec)) {
            case "ADD" -> switch (t.keyword(spec + 1)) {
                case "UNIQUE", "INDEX", "KEY", "FULLTEXT", "SPATIAL" -> EventType.CINDEX;
                default -> EventType.ALTER;
            };
            case "DROP" -> switch (t.keyword(spec + 1)) {
                // Canal's DDL parser counts dropping any named constraint (CHECK included) as dropping an index
                case "INDEX", "KEY", "CONSTRAINT" -> EventType.DINDEX;
                default -> EventType.ALTER;
            };
            default -> EventType.ALTER;
        };
        return new StatementKind(Category.DDL, type, name[0], name[1], null);
    }

    private static StatementKind drop(Tokens t, String defaultSchema) {
        int at = 1;
        if (t.keyword(at).equals("TEMPORARY")) {
            at++;
        }
        return switch (t.keyword(at)) {
            case "TABLE" -> table(EventType.ERASE, t, skipIfExists(t, at + 1), defaultSchema);
            case "DATABASE", "SCHEMA" -> database(t, skipIfExists(t, at + 1));
            case "INDEX" -> indexOn(EventType.DINDEX, t, at + 1, defaultSchema);
            default -> other();
        };
    }

    private static boolean isColumnOrIndex(String keyword) {
        return keyword.equals("COLUMN") || keyword.equals("INDEX") || keyword.equals("KEY");
    }

    /** {@code RENAME TABLE a TO b [, c TO d ...]}: the entry names the first pair's new name. */
    private static StatementKind rename(Tokens t, String defaultSchema) {
        List<StatementKind.Rename> pairs = new ArrayList<>();
        int from = 2;
        while (true) {
            int to = from + t.nameLength(from);
            if (!t.keyword(to).equals("TO")) {
                break;
            }
            String[] oldName = t.qualifiedName(from, defaultSchema);
            String[] newName = t.qualifiedName(to + 1, defaultSchema);
            pairs.add(new StatementKind.Rename(oldName[0], oldName[1], newName[0], newName[1]));
            int next = to + 1 + t.nameLength(to + 1);
            if (!t.keyword(next).equals(",")) {
                break;
            }
            from = next + 1;
        }
        if (pairs.isEmpty()) {
            return other();
        }
        StatementKind.Rename first = pairs.get(0);
        return new StatementKind(Category.DDL, EventType.RENAME, first.toSchema(), first.toTable(), null, pairs);
    }

    /** {@code CREATE INDEX i ON t} / {@code DROP INDEX i ON t}. */
    private static StatementKind indexOn(EventType type, Tokens t, int indexNameAt, String defaultSchema) {
        int on = indexNameAt + 1;
        while (on < HEAD_TOKENS && !t.keyword(on).equals("ON") && !t.keyword(on).isEmpty()) {
            on++;
        }
        return t.keyword(on).equals("ON") ? table(type, t, on + 1, defaultSchema) : other();
    }

    private static StatementKind table(EventType type, Tokens t, int at, String defaultSchema) {
        String[] name = t.qualifiedName(at, defaultSchema);
        return new StatementKind(Category.DDL, type, name[0], name[1], null);
    }

    private static StatementKind database(Tokens t, int at) {
        return new StatementKind(Category.DDL, EventType.QUERY, t.identifier(at), "", null);
    }

    private static StatementKind dml(EventType type, String defaultSchema) {
        return new StatementKind(Category.DML, type, defaultSchema == null ? "" : defaultSchema, "", null);
    }

    private static StatementKind other() {
        return StatementKind.of(Category.OTHER);
    }

    private static int skipIfNotExists(Tokens t, int at) {
        return t.keyword(at).equals("IF") && t.keyword(at + 1).equals("NOT") ? at + 3 : at;
    }

    private static int skipIfExists(Tokens t, int at) {
        return t.keyword(at).equals("IF") && t.keyword(at + 1).equals("EXISTS") ? at + 2 : at;
    }

    /** The first tokens of a statement: words, quoted identifiers and single punctuation characters. */
    private static final class Tokens {

        private final List<String> tokens = new ArrayList<>();
        private final List<Boolean> quoted = new ArrayList<>();
        private final List<Integer> ends = new ArrayList<>();

        Tokens(String sql, int limit) {
            int i = 0;
            int n = sql.length();
            while (i < n && tokens.size() < limit) {
                char c = sql.charAt(i);
                int afterComment = SqlComments.skip(sql, i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (afterComment > i) {
                    i = afterComment;
                } else if (c == '`' || c == '"') {
                    int close = sql.indexOf(c, i + 1);
                    int end = close < 0 ? n : close;
                    add(sql.substring(i + 1, end), true, Math.min(n, end + 1));
                    i = end + 1;
                } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127) {
                    int start = i;
                    while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
                            || sql.charAt(i) == '$' || sql.charAt(i) > 127)) {
                        i++;
                    }
                    add(sql.substring(start, i), false, i);
                } else {
                    add(String.valueOf(c), false, i + 1);
                    i++;
                }
            }
        }

        private void add(String token, boolean isQuoted, int end) {
            tokens.add(token);
            quoted.add(isQuoted);
            ends.add(end);
        }

        /** The token upper-cased if it is an unquoted word, "" past the end or for quoted identifiers. */
        String keyword(int index) {
            if (index >= tokens.size() || quoted.get(index)) {
                return "";
            }
            return tokens.get(index).toUpperCase(Locale.ROOT);
        }

        String identifier(int index) {
            return index < tokens.size() ? tokens.get(index) : "";
        }

        /** Tokens a (possibly schema-qualified) name takes: 1, or 3 for {@code a.b}. */
        int nameLength(int index) {
            return ".".equals(identifier(index + 1)) && !quoted.get(index + 1) ? 3 : 1;
        }

        String[] qualifiedName(int index, String defaultSchema) {
            if (nameLength(index) == 3) {
                return new String[] {identifier(index), identifier(index + 2)};
            }
            return new String[] {defaultSchema == null ? "" : defaultSchema, identifier(index)};
        }

        /** The statement text after token {@code index}, keeping its leading space (Canal's XA_XID form). */
        String textAfter(String sql, int index) {
            return index < ends.size() ? sql.substring(ends.get(index)) : "";
        }
    }
}
