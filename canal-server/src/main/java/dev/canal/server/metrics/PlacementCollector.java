package dev.canal.server.metrics;

import dev.canal.server.ha.PlacementMetrics;
import java.util.List;

/**
 * The placement of this server in a ZooKeeper cluster (docs/high-availability.md, "Spreading destinations over
 * servers"): how many destinations it runs, how many it moved away and why, and how long each move took.
 */
final class PlacementCollector implements MetricsCollector {

    static final String MOVE_TIME = "canal_server_placement_move_time";

    private final PlacementMetrics placement;

    PlacementCollector(PlacementMetrics placement) {
        this.placement = placement;
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder running = MetricFamily.builder("canal_server_running_destinations", MetricType.GAUGE,
                "Destinations whose instance runs on this server (it holds their running node)");
        running.add(placement.running());
        MetricFamily.Builder moves = MetricFamily.builder("canal_server_placement_moves", MetricType.COUNTER,
                "Destinations this server handed over to even out the placement, by reason");
        placement.moves().forEach((reason, count) -> moves.add(count, "reason", reason));
        MetricFamily.Builder time = MetricFamily.builder(MOVE_TIME, MetricType.HISTOGRAM,
                "Time from the start of a move's handover until another server held the destination, ms");
        Histograms.add(time, placement.moveBucketCounts(), PlacementMetrics.MOVE_BUCKETS_MILLIS,
                placement.moveMillisTotal());
        return List.of(running.build(), moves.build(), time.build());
    }
}
