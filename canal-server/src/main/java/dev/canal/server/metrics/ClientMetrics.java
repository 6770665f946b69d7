package dev.canal.server.metrics;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the TCP server counts about its clients, per destination (the {@code canal_instance_client_*} metrics). Plain counters; the deployer exports them.
 */
public final class ClientMetrics {

    /** Client addresses that get a label of their own; errors of further addresses share {@value #OTHER_CLIENTS}. */
    public static final int MAX_CLIENT_LABELS = 1024;
    public static final String OTHER_CLIENTS = "other-clients";

    private final ConcurrentMap<String, DestinationClientMetrics> byDestination = new ConcurrentHashMap<>();
    private final Set<String> clientLabels = ConcurrentHashMap.newKeySet();

    /** The counters of one deployed destination (or consumer of one), created on first use. */
    public DestinationClientMetrics of(String destination) {
        return byDestination.computeIfAbsent(destination, DestinationClientMetrics::new);
    }

    /**
     * The counters for errors not tied to a deployed destination (an unsupported packet type, a name refused, an
     * exception), which Canal labels with the client's address: here its IP address without the port, so that
     * reconnecting does not make a new series, and at most {@value #MAX_CLIENT_LABELS} addresses.
     */
    public DestinationClientMetrics ofClient(SocketAddress client) {
        String label = client instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : String.valueOf(client);
        if (!clientLabels.contains(label)) {
            if (clientLabels.size() >= MAX_CLIENT_LABELS) {
                return of(OTHER_CLIENTS);
            }
            clientLabels.add(label);
        }
        return of(label);
    }

    /** Every destination seen so far and its live counters. */
    public Map<String, DestinationClientMetrics> all() {
        return Map.copyOf(byDestination);
    }
}
