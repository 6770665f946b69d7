package dev.canal.server.netty;

import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.server.ServerConfig;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks CLIENTAUTHENTICATION against {@code canal.user} / {@code canal.passwd}. A wrong
 * user or password gets {@code ACK 400 "auth failed for user:<name>"} and the connection stays open for
 * another try (quirk 6). On success the idle handlers go in, this handler leaves, and the success ACK is
 * sent (after subscribing, when the auth packet names a destination and client id).
 *
 * <p>A connection not authenticated within {@code canal.client.auth.timeout} of opening (ours; Canal waits
 * forever) gets {@code ACK 400} saying so and is closed: silent sockets and endless password guessing end there.
 *
 * <p>Unlike Canal, which parses whatever packet comes first as ClientAuth, a packet of another type before
 * authentication gets an error and the connection is closed: its body would otherwise be read as
 * credentials. The official client always authenticates first.
 */
final class AuthenticationHandler extends SimpleChannelInboundHandler<CanalPacket.Packet> {

    private static final Logger log = LoggerFactory.getLogger(AuthenticationHandler.class);
    static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 3_600_000;

    private final ServerConfig config;
    private final ChannelSession session;
    private final RequestProcessor processor;
    private final String sessionHandlerName;
    private ScheduledFuture<?> deadline; // event loop only

    AuthenticationHandler(ServerConfig config, ChannelSession session, RequestProcessor processor,
            String sessionHandlerName) {
        this.config = config;
        this.session = session;
        this.processor = processor;
        this.sessionHandlerName = sessionHandlerName;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> closeUnauthenticated(ctx), config.authTimeoutMillis(),
                TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    /** Authenticated or closed: the deadline no longer applies. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    private void closeUnauthenticated(ChannelHandlerContext ctx) {
        log.warn("closing {}: not authenticated within {} ms ({})", ctx.channel(), config.authTimeoutMillis(),
                ServerConfig.AUTH_TIMEOUT.name());
        ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST, "authentication not completed within "
                + config.authTimeoutMillis() + " ms (" + ServerConfig.AUTH_TIMEOUT.name() + "), closing the connection"))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, CanalPacket.Packet packet) throws Exception {
        if (packet.getType() != PacketType.CLIENTAUTHENTICATION) {
            log.warn("closing {}: packet type {} before authentication", ctx.channel(), packet.getType());
            ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST,
                    "packet type: " + packet.getType() + " is NOT supported before authentication!"))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        CanalPacket.ClientAuth auth = CanalPacket.ClientAuth.parseFrom(packet.getBody());
        if (!accepts(auth)) {
            log.warn("authentication of user '{}' from {} failed", auth.getUsername(), ctx.channel().remoteAddress());
            ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST,
                    "auth failed for user:" + auth.getUsername()));
            return;
        }
        int readIdle = auth.hasNetReadTimeout() && auth.getNetReadTimeout() > 0
                ? auth.getNetReadTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        int writeIdle = auth.hasNetWriteTimeout() && auth.getNetWriteTimeout() > 0
                ? auth.getNetWriteTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        ctx.pipeline().addBefore(sessionHandlerName, "idle",
                new IdleStateHandler(readIdle, writeIdle, 0, TimeUnit.MILLISECONDS));
        ctx.pipeline().addBefore(sessionHandlerName, "idleClose", new IdleCloseHandler());
        ctx.pipeline().remove(this);
        if (!auth.getDestination().isEmpty() && !auth.getClientId().isEmpty()) {
            // may start an instance: not on the event loop, and ahead of every later request of this client
            session.submit(() -> processor.subscribeAtAuth(session, auth));
        } else {
            ctx.writeAndFlush(Packets.success(ctx.alloc()));
        }
        log.info("{} authenticated as user '{}'", ctx.channel(), auth.getUsername());
    }

    /** Canal's decision table. */
    private boolean accepts(CanalPacket.ClientAuth auth) {
        return config.credentials().accepts(auth.getUsername(), auth.getPassword().toByteArray(), session.seed());
    }
}
