package dev.canal.server.metrics;

import dev.canal.instance.CanalInstance;
import dev.canal.sink.EventSink;

/**
 * How the exporter reaches an instance's sink to watch what passes it. {@link CanalInstance} does not expose its
 * sink, so the builder of the instances says where it is; without it the two sink metrics
 * ({@code canal_instance_traffic_delay}, {@code canal_instance_transactions}) are left out.
 */
@FunctionalInterface
public interface SinkLocator {

    /** Knows no sink: the sink metrics are left out. */
    SinkLocator NONE = instance -> null;

    /** The instance's sink, or null when unknown. */
    EventSink sinkOf(CanalInstance instance);
}
