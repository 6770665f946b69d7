package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;
import static dev.canal.server.metrics.MetricType.GAUGE;

import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.parse.snapshot.SnapshotStats;
import java.util.List;

/**
 * The snapshot series of the destinations that have snapshots configured (docs/snapshots.md, "Progress"), each
 * labelled with the destination:
 * <ul>
 * <li>{@code canal_instance_snapshot_rows_read}: rows read from the source in chunks;</li>
 * <li>{@code canal_instance_snapshot_rows_emitted}: rows put into the stream;</li>
 * <li>{@code canal_instance_snapshot_chunks}: chunks put into the stream;</li>
 * <li>{@code canal_instance_snapshot_tables_done}: tables copied to the end;</li>
 * <li>{@code canal_instance_snapshot_tables_pending}: tables requested and not finished;</li>
 * <li>{@code canal_instance_snapshot_recoveries}: recoveries from a position the source purged, each a copy of
 * every selected table ({@code canal.instance.snapshot.mode=when_needed}).</li>
 * </ul>
 */
final class SnapshotCollector implements MetricsCollector {

    private static final String DESTINATION = "destination";

    private final InstanceRegistry registry;

    SnapshotCollector(InstanceRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder read = MetricFamily.builder("canal_instance_snapshot_rows_read", COUNTER,
                "Rows snapshots read from the source");
        MetricFamily.Builder emitted = MetricFamily.builder("canal_instance_snapshot_rows_emitted", COUNTER,
                "Rows snapshots put into the stream");
        MetricFamily.Builder chunks = MetricFamily.builder("canal_instance_snapshot_chunks", COUNTER,
                "Snapshot chunks put into the stream");
        MetricFamily.Builder done = MetricFamily.builder("canal_instance_snapshot_tables_done", COUNTER,
                "Tables snapshots copied to the end");
        MetricFamily.Builder pending = MetricFamily.builder("canal_instance_snapshot_tables_pending", GAUGE,
                "Tables requested for a snapshot and not finished");
        MetricFamily.Builder recoveries = MetricFamily.builder("canal_instance_snapshot_recoveries", COUNTER,
                "Copies of every selected table because the source purged the position the destination needed");
        for (InstanceRegistry.Registered registered : registry.registered()) {
            if (!(registered.instance().getEventParser() instanceof MysqlEventParser parser)) {
                continue;
            }
            SnapshotStats stats = parser.snapshotStats();
            if (stats == null) {
                continue;
            }
            String destination = registered.instance().getDestination();
            read.add(stats.rowsRead(), DESTINATION, destination);
            emitted.add(stats.rowsEmitted(), DESTINATION, destination);
            chunks.add(stats.chunks(), DESTINATION, destination);
            done.add(stats.tablesDone(), DESTINATION, destination);
            pending.add(stats.tablesPending(), DESTINATION, destination);
            recoveries.add(stats.recoveries(), DESTINATION, destination);
        }
        return List.of(read.build(), emitted.build(), chunks.build(), done.build(), pending.build(),
                recoveries.build());
    }
}
