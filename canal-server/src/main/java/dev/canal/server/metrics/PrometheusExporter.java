package dev.canal.server.metrics;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.server.ha.PlacementMetrics;
import dev.canal.server.netty.ConnectionLimit;
import dev.canal.server.netty.DaemonThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 *
 * <p>The endpoint never blocks on a connection: requests are read and answers written by one non-blocking event
 * loop, scrapes are built one at a time on their own thread, so a client that sends half a request or reads its
 * answer slowly holds nothing but its own connection, which is closed after {@value #IDLE_SECONDS} s idle. At most
 * {@value #MAX_CONNECTIONS} connections are open ({@value #MAX_CONNECTIONS_PER_ADDRESS} from one address), and a
 * request may carry at most {@value #MAX_REQUEST_BYTES} bytes of headers and body.
 */
public final class PrometheusExporter {

    public static final ConfigKey PORT = ConfigKey.canal("canal.metrics.pull.port", "11112",
            "Port of the Prometheus metrics endpoint (/metrics); 0 or below runs none.").atMost(65535);
    public static final ConfigKey IP = ConfigKey.ours("canal.metrics.pull.ip", "",
            "Address the metrics endpoint listens on; empty listens on every interface.");

    static final int IDLE_SECONDS = 30;
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_CONNECTIONS_PER_ADDRESS = 16;
    static final int MAX_REQUEST_BYTES = 8192;

    private static final Logger log = LoggerFactory.getLogger(PrometheusExporter.class);
    private static final long STOP_WAIT_MILLIS = 5000;

    private final EmbeddedCanalServer server;
    private final InstanceRegistry registry;
    private final List<MetricsCollector> collectors;
    private final Channel listening;
    private final EventLoopGroup group;
    private final ExecutorService scrapeThread;

    private PrometheusExporter(EmbeddedCanalServer server, InstanceRegistry registry, List<MetricsCollector> collectors,
            Channel listening, EventLoopGroup group, ExecutorService scrapeThread) {
        this.server = server;
        this.registry = registry;
        this.collectors = new CopyOnWriteArrayList<>(collectors);
        this.listening = listening;
        this.group = group;
        this.scrapeThread = scrapeThread;
    }

    /**
     * Starts exporting on {@code port} of every interface; a port of 0 or below disables the exporter (an inert
     * one is returned). The sink metrics need {@link #start(String, int, EmbeddedCanalServer, ClientMetrics,
     * SinkLocator)}.
     *
     * @param clients the counters the TCP server updates (a fresh, empty one without a TCP server)
     * @throws UncheckedIOException naming the port and its key when the port cannot be bound
     */
    public static PrometheusExporter start(int port, EmbeddedCanalServer server, ClientMetrics clients) {
        return start("", port, server, clients, SinkLocator.NONE);
    }

    /**
     * As {@link #start(int, EmbeddedCanalServer, ClientMetrics)} on address {@code ip} ({@code canal.metrics.pull.ip},
     * empty for every interface), watching the sinks {@code sinks} finds.
     */
    public static PrometheusExporter start(String ip, int port, EmbeddedCanalServer server, ClientMetrics clients,
            SinkLocator sinks) {
        if (port <= 0) {
            log.info("metrics exporter disabled ({}={})", PORT.name(), port);
            return new PrometheusExporter(server, null, List.of(), null, null, null);
        }
        InetSocketAddress address = ip == null || ip.isBlank() ? new InetSocketAddress(port)
                : new InetSocketAddress(ip.trim(), port);
        return bind(address, server, clients, sinks, System::currentTimeMillis);
    }

    /** Binds to exactly this address (port 0 picks a free one, for tests). */
    static PrometheusExporter bind(InetSocketAddress address, EmbeddedCanalServer server, ClientMetrics clients,
            SinkLocator sinks, LongSupplier clock) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(sinks, "sinks");
        InstanceRegistry registry = new InstanceRegistry(sinks, clock);
        List<MetricsCollector> collectors = List.of(new InstanceCollector(registry, clock),
                new ParserCollector(registry), new ConsumerCollector(registry), new SnapshotCollector(registry),
                new ClientCollector(clients),
                new JvmCollector());
        ExecutorService scrapeThread = Executors.newSingleThreadExecutor(DaemonThreads.named("canal-metrics-scrape"));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, DaemonThreads.named("canal-metrics-io"),
                NioIoHandler.newFactory());
        PrometheusExporter[] exporter = new PrometheusExporter[1];
        ConnectionLimit limit = ConnectionLimit.fixed("metrics", MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS);
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (limit.admit(channel) != null) {
                            channel.close();
                            return;
                        }
                        channel.pipeline()
                                .addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
                                .addLast("http", new HttpServerCodec(MAX_REQUEST_BYTES, MAX_REQUEST_BYTES,
                                        MAX_REQUEST_BYTES))
                                .addLast("request", new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                .addLast("scrape", new MetricsHttpHandler(() -> exporter[0].scrape(), scrapeThread));
                    }
                });
        Channel listening;
        try {
            listening = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows a bind failure undeclared
            group.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
            scrapeThread.shutdownNow();
            throw new UncheckedIOException("cannot start the metrics exporter on " + address + " (" + PORT.name()
                    + "): " + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
        }
        exporter[0] = new PrometheusExporter(server, registry, collectors, listening, group, scrapeThread);
        server.addInstanceListener(registry);
        log.info("metrics exporter listening on {}", listening.localAddress());
        return exporter[0];
    }

    /** The bound port; -1 when disabled. */
    public int port() {
        return listening == null ? -1 : ((InetSocketAddress) listening.localAddress()).getPort();
    }

    /** Stops serving and removes the handlers added to the instances' sinks; the instances keep running. */
    public void stop() {
        if (listening == null) {
            return;
        }
        server.removeInstanceListener(registry);
        registry.clear();
        listening.close().syncUninterruptibly();
        group.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        scrapeThread.shutdownNow();
        log.info("metrics exporter stopped");
    }

    /** Exports the placement of a server in a ZooKeeper cluster from now on (it joins the election after the start). */
    public void watchPlacement(PlacementMetrics placement) {
        collectors.add(new PlacementCollector(placement));
    }

    /** What a scrape returns now. */
    public String scrape() {
        List<MetricFamily> families = new ArrayList<>();
        collectors.forEach(collector -> families.addAll(collector.collect()));
        return TextFormat.write(families);
    }
}
