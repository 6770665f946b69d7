package dev.canal.sink.filter;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Column white and black lists per table, in the form
 * {@code schema1.table1:col1/col2,schema2.table2:colA}. Tables are named exactly (no regex),
 * case-insensitively. A table with a white list emits only its listed columns; otherwise a table with
 * a black list emits all but its listed columns. Items without exactly one ':' are ignored, as in
 * Canal (with a warning).
 */
public final class ColumnFilter {

    private static final Logger log = LoggerFactory.getLogger(ColumnFilter.class);
    private static final ColumnFilter NONE = new ColumnFilter(Map.of(), Map.of());

    private final Map<String, Set<String>> whiteLists;
    private final Map<String, Set<String>> blackLists;

    private ColumnFilter(Map<String, Set<String>> whiteLists, Map<String, Set<String>> blackLists) {
        this.whiteLists = whiteLists;
        this.blackLists = blackLists;
    }

    public static ColumnFilter none() {
        return NONE;
    }

    public static ColumnFilter parse(String whiteConfig, String blackConfig) {
        return new ColumnFilter(parseLists(whiteConfig), parseLists(blackConfig));
    }

    private static Map<String, Set<String>> parseLists(String config) {
        Map<String, Set<String>> lists = new LinkedHashMap<>();
        if (config == null || config.isBlank()) {
            return Map.of();
        }
        for (String item : config.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            String[] parts = item.split(":");
            if (parts.length != 2) {
                log.warn("column filter item '{}' is not schema.table:col1/col2, ignored", item);
                continue;
            }
            Set<String> columns = Arrays.stream(parts[1].split("/"))
                    .map(ColumnFilter::normalize)
                    .filter(column -> !column.isEmpty())
                    .collect(Collectors.toUnmodifiableSet());
            lists.put(normalize(parts[0]), columns);
        }
        return Map.copyOf(lists);
    }

    private static String normalize(String name) {
        return name.trim().toUpperCase(Locale.ROOT);
    }

    public boolean isEmpty() {
        return whiteLists.isEmpty() && blackLists.isEmpty();
    }

    /** The columns of {@code schema.table} to emit, to be asked once per rows event. */
    public Selection forTable(String schema, String table) {
        if (isEmpty()) {
            return Selection.ALL;
        }
        String key = normalize(schema + "." + table);
        Set<String> white = whiteLists.get(key);
        if (white != null) {
            return new Selection(white, true);
        }
        Set<String> black = blackLists.get(key);
        return black != null ? new Selection(black, false) : Selection.ALL;
    }

    /**
     * Which columns of one table are emitted: those listed (white list) or all but those listed
     * (black list). Column names compare case-insensitively.
     */
    public record Selection(Set<String> columns, boolean whiteList) {

        public static final Selection ALL = new Selection(Set.of(), false);

        public boolean keeps(String columnName) {
            return columns.contains(columnName.toUpperCase(Locale.ROOT)) == whiteList;
        }

        public boolean keepsAll() {
            return !whiteList && columns.isEmpty();
        }
    }

    @Override
    public String toString() {
        return "ColumnFilter[white=" + whiteLists + ", black=" + blackLists + "]";
    }
}
