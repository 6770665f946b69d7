package dev.canal.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.DefaultCanalInstance;
import dev.canal.instance.LogAlarmHandler;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.position.MemoryLogPositionManager;
import dev.canal.parse.snapshot.SnapshotConfig;
import dev.canal.sink.EntryEventSink;
import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SnapshotCollectorTest {

    private final MemoryEventStore store = new MemoryEventStore(StoreConfig.itemSize(16));
    private final EntryEventSink sink = new EntryEventSink(store, false);
    private final InstanceRegistry registry = new InstanceRegistry(SinkLocator.NONE, System::currentTimeMillis);

    private MysqlEventParser parser(String destination, String mode) {
        Properties p = new Properties();
        p.setProperty(MysqlParserConfig.MASTER_ADDRESS.name(), "127.0.0.1:1"); // nothing listens: no rows yet
        p.setProperty(SnapshotConfig.MODE.name(), mode);
        MysqlEventParser parser = new MysqlEventParser(destination, MysqlParserConfig.fromProperties(p), sink,
                new MemoryLogPositionManager(), SinkFilterConfig.defaults());
        parser.setSnapshotConfig(SnapshotConfig.fromProperties(p));
        registry.starting(new DefaultCanalInstance(destination, new MemoryMetaManager(), new LogAlarmHandler(), store,
                sink, parser));
        return parser;
    }

    @Test
    void onlyDestinationsWithSnapshotsHaveSnapshotSeries() {
        MysqlEventParser withSnapshots = parser("snap", "initial");
        MysqlEventParser plain = parser("plain", "never");
        plain.start();
        withSnapshots.start();
        try {
            Map<String, List<String>> families = new SnapshotCollector(registry).collect().stream()
                    .collect(Collectors.toMap(MetricFamily::name, f -> f.samples().stream()
                            .map(s -> s.labels().get(0).value() + " " + s.value()).toList()));

            assertThat(families.get("canal_instance_snapshot_rows_read")).containsExactly("snap 0.0");
            assertThat(families.get("canal_instance_snapshot_tables_pending")).containsExactly("snap 0.0");
            assertThat(families).containsKeys("canal_instance_snapshot_rows_emitted", "canal_instance_snapshot_chunks",
                    "canal_instance_snapshot_tables_done", "canal_instance_snapshot_recoveries");
        } finally {
            withSnapshots.stop();
            plain.stop();
        }
    }
}
