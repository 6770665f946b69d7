package dev.canal.bench.jmh;

import dev.canal.bench.BenchTable;
import dev.canal.parse.convert.ColumnRenderer;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.EventPosition;
import dev.canal.parse.convert.GtidTracker;
import dev.canal.parse.meta.ColumnMeta;
import dev.canal.parse.meta.TableMeta;
import dev.canal.parse.meta.TableMetaSource;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.TableMapEvent;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.sink.filter.SinkFilterConfig;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;

/**
 * The sample binlog decoded up to one rows event of each kind, with an {@link EntryConverter} wired as the
 * parser wires it (table definition from a fixed source, UTC, no filters) for the entry-building benchmarks.
 */
final class SampleRows {

    final RowsEvent event;
    final TableMapEvent map;
    final EntryConverter converter;
    final EntryConverter.RowsTask task;

    SampleRows(RowsEvent.Kind kind) {
        DecoderContext context = new DecoderContext();
        RowsEvent found = null;
        for (byte[] bytes : SampleEvents.load()) {
            BinlogEvent decoded = context.decode(bytes);
            if (decoded instanceof RowsEvent rows && rows.kind() == kind) {
                found = rows;
                break;
            }
        }
        if (found == null) {
            throw new IllegalStateException("the sample binlog has no " + kind + " rows event");
        }
        event = found;
        map = context.tableMap(found.tableId());
        converter = new EntryConverter(new FixedTableMeta(), new ColumnRenderer(ZoneOffset.UTC),
                () -> SinkFilterConfig.fromProperties(new Properties()), context::tableMap, GtidTracker.off(), null);
        task = converter.prepareRows(event, EventPosition.of("mysql-bin.000001", event.header()));
    }

    /** The workload table's definition, as the parser would read it from the database. */
    private static final class FixedTableMeta implements TableMetaSource {

        private static final TableMeta META = new TableMeta(BenchTable.SCHEMA, BenchTable.TABLE, List.of(
                column("id", "bigint(20)", "bigint", true, false),
                column("c_int", "int(11)", "int", false, false),
                column("c_name", "varchar(64)", "varchar", false, true),
                column("c_note", "varchar(255)", "varchar", false, true),
                column("c_amount", "decimal(12,2)", "decimal", false, false),
                column("c_at", "datetime(3)", "datetime", false, false),
                column("c_ts", "timestamp", "timestamp", false, false),
                column("c_day", "date", "date", false, false),
                column("c_ratio", "double", "double", false, false),
                column("c_flag", "tinyint(4)", "tinyint", false, false),
                column("c_body", "text", "text", false, true),
                column("c_doc", "longtext", "longtext", false, true)));

        private static ColumnMeta column(String name, String mysqlType, String dataType, boolean key, boolean text) {
            return new ColumnMeta(name, mysqlType, dataType, key, false, text ? StandardCharsets.UTF_8 : null, 0);
        }

        @Override
        public TableMeta find(String schema, String table) {
            return META;
        }

        @Override
        public void invalidate(String schema, String table) {
        }

        @Override
        public void applyDdl(String sessionSchema, String schema, String table, String sql, EntryPosition position) {
        }

        @Override
        public void rewindTo(EntryPosition position) {
        }
    }
}
