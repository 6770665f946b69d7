package dev.canal.parse.meta.history;

import dev.canal.parse.meta.TableMetaSource;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.mysql.StoreDrain;
import dev.canal.parse.position.LogPositionManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.MySqlServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** One parser on a real store and sink, reading one schema of the fixture with the given table meta source. */
final class ParserRun implements AutoCloseable {

    private final MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(4096));
    private final EntryEventSink sink = new EntryEventSink(store, false);
    private final MysqlEventParser parser;

    ParserRun(MySqlServer db, String schema, MySqlServer.BinlogCoordinates from, LogPositionManager positions,
            TableMetaSource metas) {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        p.setProperty("canal.instance.dbUsername", db.replicationUser());
        p.setProperty("canal.instance.dbPassword", db.replicationPassword());
        p.setProperty("canal.instance.master.journal.name", from.file());
        p.setProperty("canal.instance.master.position", Long.toString(from.position()));
        p.setProperty("canal.instance.filter.regex", schema + "\\..*");
        store.start();
        sink.start();
        parser = new MysqlEventParser("it", MysqlParserConfig.fromProperties(p), sink, positions,
                SinkFilterConfig.fromProperties(p), metas);
        parser.start();
    }

    /** Entries until {@code rowEntries} INSERT/UPDATE/DELETE entries arrived, acking as it goes. */
    List<CanalEntry.Entry> drainUntil(int rowEntries) {
        return StoreDrain.untilRowEntries(store, rowEntries);
    }

    static List<CanalEntry.Entry> rows(List<CanalEntry.Entry> entries) {
        return StoreDrain.rowEntriesOf(entries);
    }

    /** The inserted row of an INSERT entry as "name=value" pairs in column order, with each column's mysqlType. */
    static String describeInsert(CanalEntry.Entry entry) {
        try {
            List<String> parts = new ArrayList<>();
            for (CanalEntry.Column c : CanalEntry.RowChange.parseFrom(entry.getStoreValue()).getRowDatas(0)
                    .getAfterColumnsList()) {
                parts.add(c.getName() + "=" + (c.getIsNull() ? "<null>" : c.getValue()) + ":" + c.getMysqlType()
                        + (c.getIsKey() ? ":key" : ""));
            }
            return String.join(" ", parts);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The inserted rows of an INSERT entry, each as "name=value ..." in column order, NULL as {@code <null>}. */
    static List<String> insertedValues(CanalEntry.Entry entry) {
        try {
            List<String> rows = new ArrayList<>();
            for (CanalEntry.RowData row : CanalEntry.RowChange.parseFrom(entry.getStoreValue()).getRowDatasList()) {
                rows.add(String.join(" ", row.getAfterColumnsList().stream()
                        .map(c -> c.getName() + "=" + (c.getIsNull() ? "<null>" : c.getValue())).toList()));
            }
            return rows;
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        parser.stop();
        sink.stop();
        store.stop();
    }
}
