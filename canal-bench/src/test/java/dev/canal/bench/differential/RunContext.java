package dev.canal.bench.differential;

import dev.canal.testsupport.MySqlServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run a difference was seen in: the source's flavour, the row metadata its binlog was written with, and the
 * statement of each binlog event as our unfiltered destination delivered it (by {@code file:offset}), so that a mask
 * can tell what an entry only Canal delivered stood for.
 */
record RunContext(MySqlServer.Flavor flavor, String rowMetadata, Map<String, String> statements) {

    RunContext {
        statements = Map.copyOf(statements);
    }

    /** A run whose statements are read from our entries of every table. */
    static RunContext of(MySqlServer db, String rowMetadata, List<EntryFields> oursUnfiltered) {
        Map<String, String> statements = new HashMap<>();
        for (EntryFields entry : oursUnfiltered) {
            String sql = entry.get("rowChange.sql");
            if (sql != null) {
                statements.putIfAbsent(position(entry), sql);
            }
        }
        return new RunContext(db.flavor(), rowMetadata, statements);
    }

    boolean mariadb() {
        return flavor == MySqlServer.Flavor.MARIADB;
    }

    /** Whether TABLE_MAP events carry column names: ours then takes definitions from the binlog itself. */
    boolean fullRowMetadata() {
        return "FULL".equalsIgnoreCase(rowMetadata);
    }

    /** The statement of the event an entry comes from, "" when our unfiltered destination delivered none there. */
    String statementAt(EntryFields entry) {
        return statements.getOrDefault(position(entry), "");
    }

    private static String position(EntryFields entry) {
        return entry.get("header.logfileName") + ":" + entry.get("header.logfileOffset");
    }
}
