package dev.canal.server.netty;

import dev.canal.server.CanalServer;
import dev.canal.server.ClientLimits;
import dev.canal.server.DeployedDestinations;
import dev.canal.server.DestinationActivator;
import dev.canal.server.ServerConfig;
import dev.canal.server.metrics.ClientMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canal's TCP server in front of a {@link CanalServer}.
 * Per connection the pipeline is: quick-ack re-arming, the 4-byte length frame decoder, packet parsing,
 * handshake (on connect), authentication (within a deadline), then (after auth) idle handlers and the session
 * handler, and last a handler that closes the connection on any failure. Requests run on a session pool, never
 * on an event loop. A connection beyond {@code canal.client.max.connections}, or beyond
 * {@code canal.client.max.connections.per.address} from one address, gets an error instead and is closed. Frames
 * are limited to {@link ClientLimits#UNAUTHENTICATED_MAX_FRAME_LENGTH} bytes until the client has authenticated;
 * replies a client leaves unread past {@code canal.client.write.buffer.size} hold its further requests back
 * (docs/security.md). Only destinations that {@link DeployedDestinations} knows may be named by a client.
 *
 * <p>Uses the epoll transport where available (so TCP_QUICKACK can be kept on, see {@link QuickAckHandler}),
 * NIO otherwise. Sockets have TCP_NODELAY and SO_KEEPALIVE on.
 */
public final class CanalNettyServer {

    private static final Logger log = LoggerFactory.getLogger(CanalNettyServer.class);
    private static final long STOP_WAIT_MILLIS = 5000;
    private static final String SESSION_HANDLER = "session";
    /** A new connection's first request waits at most this long for the acks of connections closed before it. */
    private static final long LEFTOVERS_MAX_WAIT_MILLIS = 1000;

    private final ServerConfig config;
    private final CanalServer server;
    private final DestinationActivator activator;
    private final DeployedDestinations deployed;
    private final ClientMetrics metrics;
    private final boolean preferEpoll;
    private final ClosedSessionLeftovers leftovers = new ClosedSessionLeftovers(LEFTOVERS_MAX_WAIT_MILLIS);

    // guarded by this
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private ExecutorService sessionPool;
    private ChannelGroup channels;
    private Channel serverChannel;
    private String transport;

    /**
     * Serves the destinations running in {@code server} (started by its owner), starting a stopped one again when a
     * client subscribes to it, and prefers the epoll transport.
     */
    public CanalNettyServer(ServerConfig config, CanalServer server, ClientMetrics metrics) {
        this(config, server, server::start, server::isStart, metrics, true);
    }

    /**
     * @param activator   makes a destination run here before a client subscribes (HA running monitor)
     * @param deployed    the destinations a client may name
     * @param preferEpoll false forces the NIO transport
     */
    public CanalNettyServer(ServerConfig config, CanalServer server, DestinationActivator activator,
            DeployedDestinations deployed, ClientMetrics metrics, boolean preferEpoll) {
        this.config = Objects.requireNonNull(config, "config");
        this.server = Objects.requireNonNull(server, "server");
        this.activator = Objects.requireNonNull(activator, "activator");
        this.deployed = Objects.requireNonNull(deployed, "deployed");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.preferEpoll = preferEpoll;
    }

    /**
     * Binds and starts accepting clients; the embedded server must be started by the caller.
     *
     * @throws IllegalStateException naming the address when it cannot be bound
     */
    public synchronized void start() {
        if (serverChannel != null) {
            throw new IllegalStateException("the TCP server is already started on " + serverChannel.localAddress());
        }
        boolean epoll = preferEpoll && Epoll.isAvailable();
        IoHandlerFactory ioHandlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        bossGroup = new MultiThreadIoEventLoopGroup(1, DaemonThreads.named("canal-server-boss"), ioHandlers);
        workerGroup = new MultiThreadIoEventLoopGroup(0, DaemonThreads.named("canal-server-io"), ioHandlers);
        sessionPool = Executors.newCachedThreadPool(DaemonThreads.named("canal-server-session"));
        channels = new DefaultChannelGroup("canal-clients", GlobalEventExecutor.INSTANCE);
        ClientLimits limits = config.limits();
        RequestProcessor processor = new RequestProcessor(server, activator, deployed, limits, metrics);
        LoginThrottle throttle = new LoginThrottle();
        WarningRate badInput = new WarningRate(ConnectionLimit.WARNING_INTERVAL_SECONDS, TimeUnit.SECONDS);
        ConnectionLimit limit = new ConnectionLimit("client", limits.maxConnections(),
                ClientLimits.MAX_CONNECTIONS.name(), limits.maxConnectionsPerAddress(),
                ClientLimits.MAX_CONNECTIONS_PER_ADDRESS.name());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(channelType)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(limits.writeBufferBytes() / 2, limits.writeBufferBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channels.add(channel);
                        String refusal = limit.admit(channel);
                        if (refusal != null) {
                            channel.pipeline().addLast("refusal", RefusalHandler.clientPort(refusal));
                            return;
                        }
                        initPipeline(channel, processor, throttle, badInput);
                    }
                });
        InetSocketAddress address = config.ip().isEmpty() ? new InetSocketAddress(config.port())
                : new InetSocketAddress(config.ip(), config.port());
        try {
            serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows a bind failure undeclared: a checked IOException with epoll
            shutdownExecutors();
            throw new IllegalStateException("cannot listen on " + address + " (canal.ip / canal.port): "
                    + e.getMessage(), e);
        }
        transport = epoll ? "epoll" : "nio";
        log.info("canal TCP server listening on {} ({} transport)", serverChannel.localAddress(), transport);
        if (config.isOpenToAnyone()) {
            // Canal's default, kept; but never silent (docs/security.md)
            log.warn("the client port {} is open to anyone who can reach it: {} is empty, so every client may read "
                    + "every destination; set {} and {} to require a password", serverChannel.localAddress(),
                    ServerConfig.PASSWD.name(), ServerConfig.USER.name(), ServerConfig.PASSWD.name());
        }
    }

    /** Closes every client connection (waiting up to 5 s), stops listening and releases all threads. */
    public synchronized void stop() {
        stop(Duration.ZERO);
    }

    /**
     * Stops listening, gives the connected clients up to {@code clientsMayLeave} to close their connections
     * themselves (clients moving to the server that took their destination over, docs/high-availability.md), then
     * closes the others (waiting up to 5 s) and releases all threads.
     */
    public synchronized void stop(Duration clientsMayLeave) {
        if (serverChannel == null) {
            return;
        }
        serverChannel.close().syncUninterruptibly();
        awaitClientsLeaving(clientsMayLeave);
        if (!channels.close().awaitUninterruptibly(STOP_WAIT_MILLIS)) {
            log.warn("some client connections did not close within {} ms", STOP_WAIT_MILLIS);
        }
        shutdownExecutors();
        serverChannel = null;
        log.info("canal TCP server stopped");
    }

    public synchronized boolean isStart() {
        return serverChannel != null;
    }

    private void awaitClientsLeaving(Duration wait) {
        List<Channel> connected = List.copyOf(channels);
        if (wait.isZero() || connected.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        long deadline = started + wait.toNanos();
        for (Channel channel : connected) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !channel.closeFuture().awaitUninterruptibly(TimeUnit.NANOSECONDS.toMillis(left))) {
                break;
            }
        }
        long remaining = connected.stream().filter(Channel::isOpen).count();
        log.info("{} of {} client connection(s) left within {} ms; closing the others", connected.size() - remaining,
                connected.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** The port listened on (the chosen one when configured with port 0). */
    public synchronized int port() {
        if (serverChannel == null) {
            throw new IllegalStateException("the TCP server is not started");
        }
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** "epoll" or "nio", whichever the running server uses. */
    public synchronized String transport() {
        if (serverChannel == null) {
            throw new IllegalStateException("the TCP server is not started");
        }
        return transport;
    }

    public ClientMetrics metrics() {
        return metrics;
    }

    private void initPipeline(SocketChannel channel, RequestProcessor processor, LoginThrottle throttle,
            WarningRate badInput) {
        ChannelSession session = new ChannelSession(channel, sessionPool, leftovers);
        ChannelPipeline pipeline = channel.pipeline();
        FrameDecoder frames = new FrameDecoder(config.limits().unauthenticatedMaxFrameLength(),
                config.limits().maxFrameLength());
        pipeline.addLast("quickAck", new QuickAckHandler());
        pipeline.addLast("frame", frames);
        pipeline.addLast("packet", new PacketDecoder());
        pipeline.addLast("handshake", new HandshakeHandler(session));
        pipeline.addLast("auth", new AuthenticationHandler(config, session, processor, throttle, frames,
                SESSION_HANDLER));
        pipeline.addLast(SESSION_HANDLER, new SessionHandler(session, processor));
        pipeline.addLast("failure", new FailureHandler(session, badInput));
    }

    private void shutdownExecutors() {
        bossGroup.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        sessionPool.shutdownNow(); // interrupts GETs still waiting in a store
    }
}
