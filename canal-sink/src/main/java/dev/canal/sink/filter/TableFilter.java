package dev.canal.sink.filter;

import java.util.Objects;

/**
 * The table filter of one instance: a table is kept iff the white list matches and the black list
 * does not. A client's non-empty subscribe filter replaces the white list only, as in Canal
 * (docs/compatibility.md, "Subscribe filters after a restart").
 */
public record TableFilter(RegexTableFilter whiteList, RegexTableFilter blackList) {

    public TableFilter {
        Objects.requireNonNull(whiteList, "whiteList");
        Objects.requireNonNull(blackList, "blackList");
    }

    public static TableFilter of(String whitePatterns, String blackPatterns) {
        return new TableFilter(RegexTableFilter.whiteList(whitePatterns), RegexTableFilter.blackList(blackPatterns));
    }

    /** Whether {@code schema.table} passes. */
    public boolean accepts(String qualifiedName) {
        return whiteList.matches(qualifiedName) && !blackList.matches(qualifiedName);
    }

    public boolean accepts(String schema, String table) {
        return accepts(schema + "." + table);
    }

    /**
     * Whether a rename of {@code from} to {@code to} (both {@code schema.table}) passes, by Canal's rule for
     * renames: the white list may match either name, and the black list blocks it only when it matches both
     * (docs/compatibility.md, filter switches).
     */
    public boolean acceptsRename(String from, String to) {
        return (whiteList.matches(to) || whiteList.matches(from)) && !(blackList.matches(to) && blackList.matches(from));
    }

    /** This filter with another white list and the same black list (a client's subscribe filter). */
    public TableFilter withWhiteList(String whitePatterns) {
        return new TableFilter(RegexTableFilter.whiteList(whitePatterns), blackList);
    }
}
