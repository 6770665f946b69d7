package dev.canal.parse.mysql;

import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.protocol.CanalEntry;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A parser on a real store and sink, fed by the real database fixture; helpers shared by the parser ITs. */
@ExtendWith(MySqlServerExtension.class)
abstract class ParserITSupport {

    MemoryEventStore store;
    EntryEventSink sink;
    MysqlEventParser parser;
    final MemoryLogPositionManager positions = new MemoryLogPositionManager();

    @AfterEach
    void stop() {
        if (parser != null) {
            parser.stop();
        }
        if (sink != null) {
            sink.stop();
        }
        if (store != null) {
            store.stop();
        }
    }

    void startParser(MySqlServer db, String schema, MySqlServer.BinlogCoordinates from) {
        startParser(properties(db, schema, from));
    }

    void startParser(Properties p) {
        store = new MemoryEventStore(StoreConfig.itemSize(4096));
        store.start();
        sink = new EntryEventSink(store, false);
        sink.start();
        startParserOnly(p);
    }

    void startParserOnly(Properties p) {
        parser = new MysqlEventParser("it", MysqlParserConfig.fromProperties(p), sink, positions,
                SinkFilterConfig.fromProperties(p));
        parser.start();
    }

    Properties properties(MySqlServer db, String schema, MySqlServer.BinlogCoordinates from) {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", db.host() + ":" + db.port());
        p.setProperty("canal.instance.dbUsername", db.replicationUser());
        p.setProperty("canal.instance.dbPassword", db.replicationPassword());
        if (from != null) {
            p.setProperty("canal.instance.master.journal.name", from.file());
            p.setProperty("canal.instance.master.position", Long.toString(from.position()));
        }
        p.setProperty("canal.instance.filter.regex", schema + "\\..*");
        p.setProperty("canal.instance.parser.parallel", Boolean.toString(parallel()));
        p.setProperty("canal.instance.parser.parallelThreadSize", "3");
        p.setProperty("canal.instance.tsdb.enable", Boolean.toString(schemaHistory()));
        p.setProperty("canal.instance.tsdb.dir", historyDir.toString());
        return p;
    }

    @TempDir
    Path historyDir;

    /** Whether table meta comes from the schema history (else from information_schema on demand). */
    boolean schemaHistory() {
        return false;
    }

    /** Whether the pipeline runs its row workers in parallel. */
    boolean parallel() {
        return true;
    }

    List<CanalEntry.Entry> drainUntil(int rowEntries) {
        return StoreDrain.untilRowEntries(store, rowEntries);
    }

    static List<CanalEntry.Entry> rowEntriesOf(List<CanalEntry.Entry> entries) {
        return StoreDrain.rowEntriesOf(entries);
    }

    static CanalEntry.RowChange rowChange(CanalEntry.Entry e) throws Exception {
        return CanalEntry.RowChange.parseFrom(e.getStoreValue());
    }

    static Map<String, String> values(List<CanalEntry.Column> columns) {
        return columns.stream().collect(Collectors.toMap(CanalEntry.Column::getName,
                c -> c.getIsNull() ? "<null>" : c.getValue()));
    }

    static List<String> insertedIds(List<CanalEntry.Entry> entries) throws Exception {
        List<String> ids = new ArrayList<>();
        for (CanalEntry.Entry e : rowEntriesOf(entries)) {
            for (CanalEntry.RowData row : rowChange(e).getRowDatasList()) {
                ids.add(values(row.getAfterColumnsList()).get("id"));
            }
        }
        return ids;
    }
}
