package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;
import static dev.canal.server.metrics.MetricType.GAUGE;

import dev.canal.instance.CanalInstance;
import dev.canal.meta.MetaManager;
import dev.canal.store.BatchMode;
import dev.canal.store.EventStore;
import dev.canal.store.StoreConfig;
import dev.canal.store.StoreCounters;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code canal_instance*} metrics of the running instances, other than the client ones,
 * read from each instance's store, meta manager and sink handler when scraped.
 */
final class InstanceCollector implements MetricsCollector {

    private static final Logger log = LoggerFactory.getLogger(InstanceCollector.class);

    private static final String DESTINATION = "destination";
    /** Instances here are always built from Spring XML and properties; Canal's other mode is its admin manager. */
    private static final String MODE = "spring";

    private final InstanceRegistry registry;
    private final LongSupplier clock;
    private final Set<String> failingSubscriptions = ConcurrentHashMap.newKeySet();

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
            Integer subscribed = subscriptionCount(instance);
            if (subscribed != null) {
                subscriptions.add(subscribed, DESTINATION, destination);
            }

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

            StoreConfig config = eventStore.config();
            store.add(1, DESTINATION, destination, "batchMode", config.batchMode().name(),
                    "size", Integer.toString(config.bufferSize()));
            if (config.batchMode() == BatchMode.MEMSIZE) {
                produceMem.add(counters.putMemSize(), DESTINATION, destination);
                consumeMem.add(counters.ackMemSize(), DESTINATION, destination);
            }
        }
        return List.of(instances.build(), subscriptions.build(), trafficDelay.build(), transactions.build(),
                produceSeq.build(), consumeSeq.build(), store.build(), produceMem.build(), consumeMem.build(),
                putDelay.build(), getDelay.build(), ackDelay.build(), putRows.build(), getRows.build(),
                ackRows.build(), sinkBlocking.build());
    }

    /**
     * The meta manager may have to ask ZooKeeper; when that fails the series is left out of this scrape rather
     * than failing the whole scrape, with a warning when a destination starts failing. Null then.
     */
    private Integer subscriptionCount(CanalInstance instance) {
        MetaManager meta = instance.getMetaManager();
        String destination = instance.getDestination();
        try {
            int count = meta.isStart() ? meta.listAllSubscribeInfo(destination).size() : 0;
            if (failingSubscriptions.remove(destination)) {
                log.info("destination {}: subscriptions are readable again for metrics", destination);
            }
            return count;
        } catch (RuntimeException e) {
            if (failingSubscriptions.add(destination)) {
                log.warn("destination {}: cannot read the subscriptions for metrics, leaving them out until they "
                        + "are readable again", destination, e);
            }
            return null;
        }
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
