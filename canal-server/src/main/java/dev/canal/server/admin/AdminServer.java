package dev.canal.server.admin;

import dev.canal.server.ClientLimits;
import dev.canal.server.netty.ConnectionLimit;
import dev.canal.server.netty.Credentials;
import dev.canal.server.netty.DaemonThreads;
import dev.canal.server.netty.FrameDecoder;
import dev.canal.server.netty.RefusalHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin port ({@code canal.admin.port}; Canal's CanalAdminWithNetty): canal-admin's SERVER, INSTANCE and LOG
 * requests over the client port's framing and authentication (docs/admin.md). It runs independently of the
 * server it administers, so a server stopped through it can be started through it again. One event-loop thread
 * is plenty for the few connections canal-admin makes: at most {@value #MAX_CONNECTIONS} are open at once
 * ({@value #MAX_CONNECTIONS_PER_ADDRESS} from one address), each must log in within {@value #AUTH_TIMEOUT_MILLIS}
 * ms, and frames are limited to {@link ClientLimits#UNAUTHENTICATED_MAX_FRAME_LENGTH} bytes until it has.
 */
public final class AdminServer {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    private static final int MAX_FRAME_LENGTH = 1 << 20;
    public static final int MAX_CONNECTIONS = 16;
    public static final int MAX_CONNECTIONS_PER_ADDRESS = 8;
    public static final int AUTH_TIMEOUT_MILLIS = 10_000;
    private static final byte[] NO_SEED = new byte[8]; // nobody authenticates against it
    private static final long STOP_WAIT_MILLIS = 5000;
    /** Threads running requests; each connection keeps to one, so its requests run in order. */
    private static final int REQUEST_THREADS = 2;

    private final String ip;
    private final int port;
    private final Credentials credentials;
    private final AdminRequests requests;
    private final int authTimeoutMillis;

    // guarded by this
    private EventLoopGroup group;
    private EventExecutorGroup requestExecutors;
    private ChannelGroup channels;
    private Channel serverChannel;

    /**
     * @param ip    the address to listen on, empty for every interface ({@code canal.ip})
     * @param port  {@code canal.admin.port}; 0 picks a free one
     */
    public AdminServer(String ip, int port, Credentials credentials, AdminRequests requests) {
        this(ip, port, credentials, requests, AUTH_TIMEOUT_MILLIS);
    }

    /** @param authTimeoutMillis how long a connection may take to log in before it is closed */
    public AdminServer(String ip, int port, Credentials credentials, AdminRequests requests, int authTimeoutMillis) {
        this.ip = ip == null ? "" : ip.trim();
        this.port = port;
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.authTimeoutMillis = authTimeoutMillis;
    }

    /** @throws IllegalStateException naming the address when it cannot be bound */
    public synchronized void start() {
        if (serverChannel != null) {
            throw new IllegalStateException("the admin port is already open on " + serverChannel.localAddress());
        }
        group = new MultiThreadIoEventLoopGroup(1, DaemonThreads.named("canal-admin-io"), NioIoHandler.newFactory());
        requestExecutors = new DefaultEventExecutorGroup(REQUEST_THREADS, DaemonThreads.named("canal-admin-request"));
        channels = new DefaultChannelGroup("canal-admin", GlobalEventExecutor.INSTANCE);
        ConnectionLimit limit = ConnectionLimit.fixed("admin", MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channels.add(channel);
                        String refusal = limit.admit(channel);
                        if (refusal != null) {
                            channel.pipeline().addLast("refusal", new RefusalHandler(alloc -> List.of(
                                    AdminPackets.handshake(alloc, NO_SEED), AdminPackets.ack(alloc,
                                            AdminRequests.error(AdminRequests.ERROR_FAILED, refusal)))));
                            return;
                        }
                        FrameDecoder frames = new FrameDecoder(ClientLimits.UNAUTHENTICATED_MAX_FRAME_LENGTH,
                                MAX_FRAME_LENGTH);
                        channel.pipeline()
                                .addLast("frame", frames)
                                .addLast("packet", new AdminPacketDecoder())
                                .addLast(requestExecutors, "admin",
                                        new AdminConnectionHandler(credentials, requests, frames, authTimeoutMillis));
                    }
                });
        InetSocketAddress address = ip.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(ip, port);
        try {
            serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows a bind failure undeclared: a checked IOException with epoll
            release();
            throw new IllegalStateException("cannot open the admin port on " + address + " (canal.ip / canal.admin.port): "
                    + e.getMessage(), e);
        }
        log.info("canal admin port listening on {}", serverChannel.localAddress());
    }

    public synchronized void stop() {
        if (serverChannel == null) {
            return;
        }
        serverChannel.close().syncUninterruptibly();
        channels.close().awaitUninterruptibly(STOP_WAIT_MILLIS);
        release();
        serverChannel = null;
        log.info("canal admin port closed");
    }

    /** The port listened on (the chosen one when configured with 0). */
    public synchronized int port() {
        if (serverChannel == null) {
            throw new IllegalStateException("the admin port is not open");
        }
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    private void release() {
        group.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
        requestExecutors.shutdownGracefully(0, STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }
}
