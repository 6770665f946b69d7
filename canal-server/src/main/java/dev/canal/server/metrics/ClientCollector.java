package dev.canal.server.metrics;

import static dev.canal.server.metrics.MetricType.COUNTER;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** The {@code canal_instance_client_*} metrics, read from the TCP server's counters. */
final class ClientCollector implements MetricsCollector {

    private static final String DESTINATION = "destination";
    private static final String LATENCY = "canal_instance_client_request_latency";
    private static final double NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    private final ClientMetrics clients;

    ClientCollector(ClientMetrics clients) {
        this.clients = clients;
    }

    @Override
    public List<MetricFamily> collect() {
        MetricFamily.Builder packets = MetricFamily.builder("canal_instance_client_packets", COUNTER,
                "Responses sent per request type (GET only when not empty)");
        MetricFamily.Builder bytes = MetricFamily.builder("canal_instance_client_bytes", COUNTER,
                "Bytes sent to clients, frame headers included");
        MetricFamily.Builder emptyBatches = MetricFamily.builder("canal_instance_client_empty_batches", COUNTER,
                "Empty GET responses");
        MetricFamily.Builder errors = MetricFamily.builder("canal_instance_client_request_error", COUNTER,
                "Error responses per error code");
        MetricFamily.Builder latency = MetricFamily.builder(LATENCY, MetricType.HISTOGRAM,
                "Request handling latency, ms");

        clients.all().values().forEach(client -> {
            String destination = client.destination();
            client.packets().forEach((type, count) ->
                    packets.add(count, DESTINATION, destination, "packetType", type));
            bytes.add(client.bytes(), DESTINATION, destination);
            emptyBatches.add(client.emptyBatches(), DESTINATION, destination);
            client.errors().forEach((code, count) ->
                    errors.add(count, DESTINATION, destination, "errorCode", Integer.toString(code)));
            addLatency(latency, client);
        });
        return List.of(packets.build(), bytes.build(), emptyBatches.build(), errors.build(), latency.build());
    }

    /** Prometheus buckets are cumulative and end with {@code +Inf}; the sum is in milliseconds like the bounds. */
    private static void addLatency(MetricFamily.Builder latency, DestinationClientMetrics client) {
        // the count is the +Inf bucket, not latencyCount(): read apart, they could disagree by a request in flight
        Histograms.add(latency, client.latencyBucketCounts(), DestinationClientMetrics.LATENCY_BUCKETS_MILLIS,
                client.latencyTotalNanos() / NANOS_PER_MILLI, DESTINATION, client.destination());
    }
}
