package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;
import static dev.canal.server.metrics.MetricType.GAUGE;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MetaManager;
import dev.canal.store.BatchMode;
import dev.canal.store.EventStore;
import dev.canal.store.MemoryEventStore;
import dev.canal.store.StoreConfig;
import dev.canal.store.StoreCounters;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The {@code canal_instance*} metrics of the running instances, other than the client ones (canal-compat.md 10),
 * read from each instance's store, meta manager and sink handler when scraped.
 */
final class InstanceCollector implements MetricsCollector {

    private static final String DESTINATION = "destination";
    /** Instances here are always built from Spring XML and properties; Canal's other mode is its admin manager. */
    private static final String MODE = "spring";

    private final InstanceRegistry registry;
    private final LongSupplier clock;

    InstanceCollector(InstanceRegistry registry, LongSupplier clock) {
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder instances = gauge("canal_instance", "Canal instance, 1 while it runs");
        MetricFamily.Builder subscriptions = gauge("canal_instance_subscriptions", "Subscribed clients");
        MetricFamily.Builder trafficDelay = gauge("canal_instance_traffic_delay",
                "Now minus the latest event time seen by the sink (master heartbeats count as now), ms");
        MetricFamily.Builder transactions = counter("canal_instance_transactions", "Transactions ended in the sink");
        MetricFamily.Builder produceSeq = counter("canal_instance_store_produce_seq", "Store put sequence");
        MetricFamily.Builder consumeSeq = counter("canal_instance_store_consume_seq", "Store ack sequence");
        MetricFamily.Builder store = gauge("canal_instance_store", "Store batch mode and buffer size, 1");
        MetricFamily.Builder produceMem = counter("canal_instance_store_produce_mem", "Bytes put (MEMSIZE)");
        MetricFamily.Builder consumeMem = counter("canal_instance_store_consume_mem", "Bytes acked (MEMSIZE)");
        MetricFamily.Builder putDelay = gauge("canal_instance_put_delay", "Now minus the last put event time, ms");
        MetricFamily.Builder getDelay = gauge("canal_instance_get_delay", "Now minus the last got event time, ms");
        MetricFamily.Builder ackDelay = gauge("canal_instance_ack_delay", "Now minus the last acked event time, ms");
        MetricFamily.Builder putRows = counter("canal_instance_put_rows", "Rows put into the store");
        MetricFamily.Builder getRows = counter("canal_instance_get_rows", "Rows got from the store");
        MetricFamily.Builder ackRows = counter("canal_instance_ack_rows", "Rows acked in the store");
        MetricFamily.Builder sinkBlocking = counter("canal_instance_sink_blocking_time",
                "Time the sink waited for store space, ms");

        long now = clock.getAsLong();
        for (InstanceRegistry.Registered registered : registry.registered()) {
            CanalInstance instance = registered.instance();
            String destination = instance.getDestination();
            instances.add(1, DESTINATION, destination, "mode", MODE);
            subscriptions.add(subscriptionCount(instance), DESTINATION, destination);

            SinkMetricsHandler sink = registered.sinkMetrics();
            if (sink != null) {
                transactions.add(sink.transactions(), DESTINATION, destination);
                addDelay(trafficDelay, now, sink.latestExecuteTime(), destination);
            }

            EventStore eventStore = instance.getEventStore();
            StoreCounters counters = eventStore.counters();
            produceSeq.add(counters.putSequence(), DESTINATION, destination);
            consumeSeq.add(counters.ackSequence(), DESTINATION, destination);
            addDelay(putDelay, now, counters.putExecuteTime(), destination);
            addDelay(getDelay, now, counters.getExecuteTime(), destination);
            addDelay(ackDelay, now, counters.ackExecuteTime(), destination);
            putRows.add(counters.putRows(), DESTINATION, destination);
            getRows.add(counters.getRows(), DESTINATION, destination);
            ackRows.add(counters.ackRows(), DESTINATION, destination);
            sinkBlocking.add(TimeUnit.NANOSECONDS.toMillis(counters.putBlockingNanos()), DESTINATION, destination);

            if (eventStore instanceof MemoryEventStore memoryStore) {
                StoreConfig config = memoryStore.config();
                store.add(1, DESTINATION, destination, "batchMode", config.batchMode().name(),
                        "size", Integer.toString(config.bufferSize()));
                if (config.batchMode() == BatchMode.MEMSIZE) {
                    produceMem.add(counters.putMemSize(), DESTINATION, destination);
                    consumeMem.add(counters.ackMemSize(), DESTINATION, destination);
                }
            }
        }
        return List.of(instances.build(), subscriptions.build(), trafficDelay.build(), transactions.build(),
                produceSeq.build(), consumeSeq.build(), store.build(), produceMem.build(), consumeMem.build(),
                putDelay.build(), getDelay.build(), ackDelay.build(), putRows.build(), getRows.build(),
                ackRows.build(), sinkBlocking.build());
    }

    private static int subscriptionCount(CanalInstance instance) {
        MetaManager meta = instance.getMetaManager();
        return meta.isStart() ? meta.listAllSubscribeInfo(instance.getDestination()).size() : 0;
    }

    /** A delay exists once an event time was seen; before, the series is absent rather than "now minus 1970". */
    private static void addDelay(MetricFamily.Builder family, long now, long eventTime, String destination) {
        if (eventTime > 0) {
            family.add(now - eventTime, DESTINATION, destination);
        }
    }

    private static MetricFamily.Builder gauge(String name, String help) {
        return MetricFamily.builder(name, GAUGE, help);
    }

    private static MetricFamily.Builder counter(String name, String help) {
        return MetricFamily.builder(name, COUNTER, help);
    }
}
