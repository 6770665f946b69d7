package dev.canal.bench.differential;

import dev.canal.bench.ReferenceCanal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One destination both servers serve from the same binlog, with the same table and field filters, instance
 * switches ({@code settings}, keys after {@code canal.instance.}, as docs/reference-canal.md names them for the
 * reference) and subscribe filter of the official client (null: none). {@code toEndMarkerOnly}: compared up to the
 * end marker's transaction only, not through the MySQL-only part after it: with a client filter or the DML switches,
 * Canal 1.1.7 fails on MySQL's compressed transactions (docs/compatibility.md, "What Canal 1.1.7 cannot read").
 */
record Variant(String name, ReferenceCanal.Filters filters, Map<String, String> settings, String clientFilter,
        boolean toEndMarkerOnly) {

    /** The destination stopped after the first part of the workload and resumed from its saved cursor. */
    static final String RESUMED = "resumed";
    /**
     * The destination whose client subscribes with a filter of its own. It subscribes while the servers first run,
     * so that its saved subscription is in force from the start of the second run: a subscription made while the
     * destination runs applies to the events parsed after it, in Canal as in ours.
     */
    static final String SUBSCRIBED = "subscribed";

    /** The entries to compare: with {@link #toEndMarkerOnly}, those up to the end marker's transaction. */
    List<EntryFields> compared(List<EntryFields> entries) {
        if (!toEndMarkerOnly) {
            return entries;
        }
        for (int i = 0; i < entries.size(); i++) {
            if (DifferentialWorkload.END_TABLE.equals(entries.get(i).get("header.tableName"))) {
                int end = i + 1 < entries.size() && entries.get(i + 1).is("TRANSACTIONEND") ? i + 2 : i + 1;
                return entries.subList(0, end);
            }
        }
        return entries;
    }

    /**
     * Every variant of a run: every table; white, black and field lists with the DCL filter, the table-error
     * switch and DDL isolation; a client's subscribe filter with the statement filters and UPDATE left out; INSERT
     * and DELETE left out with transaction entries; rows left out; and {@value #RESUMED}, every table, dumped by
     * GTID set on MySQL (from {@code gtidStart}). No variant reads the tables of
     * {@link DifferentialWorkload#TABLES_CANAL_CANNOT_READ}.
     */
    static List<Variant> all(String schema, String gtidStart) {
        String blackListed = DifferentialWorkload.TABLES_CANAL_CANNOT_READ.stream().map(t -> schema + "\\." + t)
                .collect(Collectors.joining(","));
        ReferenceCanal.Filters everyTable = new ReferenceCanal.Filters(schema + "\\..*", blackListed, null, null);
        List<Variant> variants = new ArrayList<>(List.of(
                new Variant("all", everyTable, Map.of(), null, false),
                new Variant("filtered", new ReferenceCanal.Filters(
                        String.join(",", schema + "\\.t_types", schema + "\\.t_side.*", schema + "\\.t_more",
                                schema + "\\.t_images", schema + "\\.t_cols.*", schema + "\\.t_types2",
                                schema + "\\." + DifferentialWorkload.MID_TABLE,
                                schema + "\\." + DifferentialWorkload.END_TABLE),
                        String.join(",", schema + "\\.t_side_renamed", schema + "\\.t_images", schema + "\\.t_cols_b",
                                blackListed),
                        schema + ".t_types:id/c_vc/c_json/c_i/c_added," + schema + ".t_side_again:id/note,"
                                + schema + ".t_types2:id/c_gbk/c_enum300",
                        schema + ".t_more:c_f73/c_d156," + schema + ".t_cols_a:a_big"),
                        Map.of("filter.query.dcl", "true", "filter.table.error", "true", "get.ddl.isolation", "true"),
                        null, false),
                new Variant(SUBSCRIBED, everyTable, Map.of("filter.query.dml", "true", "filter.query.ddl", "true",
                        "filter.dml.update", "true"), String.join(",", schema + "\\.t_types", schema + "\\.t_cols.*",
                                schema + "\\.t_xa", schema + "\\." + DifferentialWorkload.MID_TABLE,
                                schema + "\\." + DifferentialWorkload.END_TABLE), true),
                new Variant("kinds", everyTable, Map.of("filter.dml.insert", "true", "filter.dml.delete", "true",
                        "filter.transaction.entry", "true"), null, true),
                new Variant("rows", everyTable, Map.of("filter.rows", "true"), null, false)));
        variants.add(new Variant(RESUMED, everyTable,
                gtidStart == null ? Map.of() : Map.of("gtidon", "true", "master.gtid", gtidStart), null, false));
        return variants;
    }
}
