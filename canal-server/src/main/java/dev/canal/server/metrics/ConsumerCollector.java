package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.GAUGE;

import dev.canal.instance.CanalInstance;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.protocol.ConsumerName;
import dev.canal.store.ConsumerCounters;
import java.util.List;

/**
 * How far each consumer of each running destination is behind (docs/consumers.md), read from the store when
 * scraped, and how long the source keeps the binlog its cursor needs (docs/operations.md, "Binlog retention"), as
 * the parser's retention watch last saw it. The {@code consumer} label is the name the consumer subscribes with: the
 * destination for its default consumer, {@code destination@name} for a named one.
 */
final class ConsumerCollector implements MetricsCollector {

    private static final String DESTINATION = "destination";
    private static final String CONSUMER = "consumer";

    private final InstanceRegistry registry;

    ConsumerCollector(InstanceRegistry registry) {
        this.registry = registry;
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder lagEntries = MetricFamily.builder("canal_instance_consumer_lag_entries", GAUGE,
                "Entries put into the store that the consumer has not acked");
        MetricFamily.Builder lagTime = MetricFamily.builder("canal_instance_consumer_lag_time", GAUGE,
                "Binlog time between the newest entry put and the consumer's last acked entry, ms");
        MetricFamily.Builder detached = MetricFamily.builder("canal_instance_consumer_detached", GAUGE,
                "1 when the consumer fell behind the store and was detached");
        MetricFamily.Builder retention = MetricFamily.builder("canal_instance_binlog_retention_seconds", GAUGE,
                "Seconds until the source's binlog expiry would purge the file the consumer's cursor needs; +Inf when "
                        + "the source never expires binlogs");
        for (InstanceRegistry.Registered registered : registry.registered()) {
            CanalInstance instance = registered.instance();
            String destination = instance.getDestination();
            for (ConsumerCounters counters : instance.getEventStore().consumerCounters()) {
                String consumer = new ConsumerName(destination, counters.consumer()).subscribedName();
                lagEntries.add(counters.lagEntries(), DESTINATION, destination, CONSUMER, consumer);
                lagTime.add(counters.lagMillis(), DESTINATION, destination, CONSUMER, consumer);
                detached.add(counters.detached() ? 1 : 0, DESTINATION, destination, CONSUMER, consumer);
            }
            if (instance.getEventParser() instanceof MysqlEventParser parser) {
                parser.binlogRetentionSeconds().forEach((consumer, seconds) ->
                        retention.add(seconds, DESTINATION, destination, CONSUMER, consumer));
            }
        }
        return List.of(lagEntries.build(), lagTime.build(), detached.build(), retention.build());
    }
}
