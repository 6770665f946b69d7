package dev.canal.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.server.EmbeddedCanalServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canal's Prometheus pull endpoint: an HTTP server on {@code canal.metrics.pull.port} whose
 * every path returns the text exposition of the running instances' metrics, the TCP server's client metrics and
 * JVM metrics. Everything is read from the live components when scraped.
 *
 * <pre>{@code
 * PrometheusExporter metrics = PrometheusExporter.start(port, embeddedServer, nettyServer.metrics());
 * ...
 * metrics.stop();
 * }</pre>
 *
 * <p>Written by hand rather than with the Prometheus Java client, whose 1.x text writer appends {@code _total} to
 * every counter name; Canal's counters have no such suffix, and dashboards built for Canal query its names.
 */
public final class PrometheusExporter {

    public static final ConfigKey PORT = ConfigKey.canal("canal.metrics.pull.port", "11112",
            "Port of the Prometheus metrics endpoint (/metrics); 0 or below runs none.").atMost(65535);

    private static final Logger log = LoggerFactory.getLogger(PrometheusExporter.class);
    private static final int HTTP_OK = 200;
    private static final int HTTP_INTERNAL_ERROR = 500;

    private final EmbeddedCanalServer server;
    private final InstanceRegistry registry;
    private final List<MetricsCollector> collectors;
    private final HttpServer http;
    private final ExecutorService executor;

    private PrometheusExporter(EmbeddedCanalServer server, InstanceRegistry registry, List<MetricsCollector> collectors,
            HttpServer http, ExecutorService executor) {
        this.server = server;
        this.registry = registry;
        this.collectors = collectors;
        this.http = http;
        this.executor = executor;
    }

    /**
     * Starts exporting on {@code port} of every interface; a port of 0 or below disables the exporter (an inert
     * one is returned). The sink metrics need {@link #start(int, EmbeddedCanalServer, ClientMetrics, SinkLocator)}.
     *
     * @param clients the counters the TCP server updates (a fresh, empty one without a TCP server)
     * @throws UncheckedIOException naming the port and its key when the port cannot be bound
     */
    public static PrometheusExporter start(int port, EmbeddedCanalServer server, ClientMetrics clients) {
        return start(port, server, clients, SinkLocator.NONE);
    }

    /** As {@link #start(int, EmbeddedCanalServer, ClientMetrics)}, watching the sinks {@code sinks} finds. */
    public static PrometheusExporter start(int port, EmbeddedCanalServer server, ClientMetrics clients,
            SinkLocator sinks) {
        if (port <= 0) {
            log.info("metrics exporter disabled ({}={})", PORT.name(), port);
            return new PrometheusExporter(server, null, List.of(), null, null);
        }
        return bind(new InetSocketAddress(port), server, clients, sinks, System::currentTimeMillis);
    }

    /** Binds to exactly this address (port 0 picks a free one, for tests). */
    static PrometheusExporter bind(InetSocketAddress address, EmbeddedCanalServer server, ClientMetrics clients,
            SinkLocator sinks, LongSupplier clock) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(sinks, "sinks");
        HttpServer http;
        try {
            http = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the metrics exporter on " + address + " (" + PORT.name()
                    + "): " + e.getMessage(), e);
        }
        InstanceRegistry registry = new InstanceRegistry(sinks, clock);
        List<MetricsCollector> collectors = List.of(new InstanceCollector(registry, clock),
                new ParserCollector(registry), new ConsumerCollector(registry), new SnapshotCollector(registry),
                new ClientCollector(clients),
                new JvmCollector());
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "canal-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        PrometheusExporter exporter = new PrometheusExporter(server, registry, collectors, http, executor);
        http.createContext("/", exporter::serve);
        http.setExecutor(executor);
        http.start();
        server.addInstanceListener(registry);
        log.info("metrics exporter listening on port {}", exporter.port());
        return exporter;
    }

    /** The bound port; -1 when disabled. */
    public int port() {
        return http == null ? -1 : http.getAddress().getPort();
    }

    /** Stops serving and removes the handlers added to the instances' sinks; the instances keep running. */
    public void stop() {
        if (http == null) {
            return;
        }
        server.removeInstanceListener(registry);
        registry.clear();
        http.stop(0);
        executor.shutdownNow();
        log.info("metrics exporter stopped");
    }

    /** What a scrape returns now. */
    public String scrape() {
        List<MetricFamily> families = new ArrayList<>();
        collectors.forEach(collector -> families.addAll(collector.collect()));
        return TextFormat.write(families);
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            int status;
            try {
                body = scrape().getBytes(StandardCharsets.UTF_8);
                status = HTTP_OK;
            } catch (RuntimeException e) {
                log.error("a metrics scrape failed", e);
                body = ("metrics scrape failed: " + e).getBytes(StandardCharsets.UTF_8);
                status = HTTP_INTERNAL_ERROR;
            }
            exchange.getResponseHeaders().set("Content-Type", TextFormat.CONTENT_TYPE);
            boolean head = "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
