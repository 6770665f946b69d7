package dev.canal.server.metrics;

import dev.canal.instance.CanalInstance;
import dev.canal.server.InstanceListener;
import dev.canal.sink.EventSink;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running instances the embedded server reports, each with the handler watching its sink (when the sink can
 * be found). Metrics appear when an instance starts and go when it stops, as in Canal.
 */
final class InstanceRegistry implements InstanceListener {

    private static final Logger log = LoggerFactory.getLogger(InstanceRegistry.class);

    /** A running instance and the handler added to its sink, or null when its sink is unknown. */
    record Registered(CanalInstance instance, EventSink sink, SinkMetricsHandler sinkMetrics) {
    }

    private final SinkLocator sinks;
    private final LongSupplier clock;
    private final ConcurrentMap<String, Registered> byDestination = new ConcurrentHashMap<>();

    InstanceRegistry(SinkLocator sinks, LongSupplier clock) {
        this.sinks = sinks;
        this.clock = clock;
    }

    /** Idempotent: an instance told twice (added while starting) keeps its one handler. */
    @Override
    public void starting(CanalInstance instance) {
        byDestination.compute(instance.getDestination(), (destination, current) -> {
            if (current != null && current.instance() == instance) {
                return current;
            }
            if (current != null) {
                detach(current);
            }
            return attach(instance);
        });
    }

    @Override
    public void stopped(CanalInstance instance) {
        byDestination.computeIfPresent(instance.getDestination(), (destination, current) -> {
            if (current.instance() != instance) {
                return current;
            }
            detach(current);
            return null;
        });
    }

    Collection<Registered> registered() {
        return List.copyOf(byDestination.values());
    }

    /** Removes every handler this registry added; the instances keep running. */
    void clear() {
        byDestination.values().forEach(InstanceRegistry::detach);
        byDestination.clear();
    }

    private Registered attach(CanalInstance instance) {
        EventSink sink = sinks.sinkOf(instance);
        if (sink == null) {
            log.info("destination {}: no sink known to the metrics exporter, traffic delay and transactions "
                    + "are not exported", instance.getDestination());
            return new Registered(instance, null, null);
        }
        SinkMetricsHandler handler = new SinkMetricsHandler(clock);
        sink.addHandler(handler, 0); // first, to see the heartbeats later handlers may remove
        return new Registered(instance, sink, handler);
    }

    private static void detach(Registered registered) {
        if (registered.sink() != null) {
            registered.sink().removeHandler(registered.sinkMetrics());
        }
    }
}
