package dev.canal.server.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the TCP server counts about its clients, per destination (the {@code canal_instance_client_*} metrics). Plain counters; the deployer exports them.
 */
public final class ClientMetrics {

    private final ConcurrentMap<String, DestinationClientMetrics> byDestination = new ConcurrentHashMap<>();

    /**
     * The counters of one destination, created on first use. For errors not tied to a destination (an
     * unsupported packet type, an exception) Canal labels them with the client's address instead.
     */
    public DestinationClientMetrics of(String destination) {
        return byDestination.computeIfAbsent(destination, DestinationClientMetrics::new);
    }

    /** Every destination seen so far and its live counters. */
    public Map<String, DestinationClientMetrics> all() {
        return Map.copyOf(byDestination);
    }
}
