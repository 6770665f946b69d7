package dev.canal.server.netty;

import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.UntrustedText;
import dev.canal.server.ClientLimits;
import dev.canal.server.ServerConfig;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks CLIENTAUTHENTICATION against {@code canal.user} / {@code canal.passwd}. A wrong user or password gets
 * Canal's {@code ACK 400 "auth failed for user:<name>"} and the connection stays open for another try (quirk 6),
 * up to {@code canal.client.auth.max.failures} failures: the last one is answered and the connection closed. An
 * address with recent failures has its attempts answered late ({@link LoginThrottle}). On success the idle
 * handlers go in, the frame limit rises to the full one, this handler leaves, and the success ACK is sent (after
 * subscribing, when the auth packet names a destination and client id).
 *
 * <p>A connection not authenticated within {@code canal.client.auth.timeout} of opening (ours; Canal waits
 * forever) gets {@code ACK 400} saying so and is closed.
 *
 * <p>Unlike Canal, which parses whatever packet comes first as ClientAuth, a packet of another type before
 * authentication gets an error and the connection is closed: its body would otherwise be read as
 * credentials. The official client always authenticates first. Packets a client sends while its login waits for
 * its answer are handled, in order, once it is answered.
 */
final class AuthenticationHandler extends SimpleChannelInboundHandler<CanalPacket.Packet> {

    private static final Logger log = LoggerFactory.getLogger(AuthenticationHandler.class);
    static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 3_600_000;
    /** Packets held while a login waits for its answer; more close the connection. */
    static final int MAX_HELD_PACKETS = 16;

    private final ServerConfig config;
    private final ChannelSession session;
    private final RequestProcessor processor;
    private final LoginThrottle throttle;
    private final FrameDecoder frames;
    private final String sessionHandlerName;
    private ScheduledFuture<?> deadline; // event loop only
    private int failures; // event loop only
    private boolean answerPending; // event loop only
    private final ArrayDeque<CanalPacket.Packet> held = new ArrayDeque<>(); // event loop only

    AuthenticationHandler(ServerConfig config, ChannelSession session, RequestProcessor processor,
            LoginThrottle throttle, FrameDecoder frames, String sessionHandlerName) {
        this.config = config;
        this.session = session;
        this.processor = processor;
        this.throttle = throttle;
        this.frames = frames;
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
        if (answerPending) {
            if (held.size() >= MAX_HELD_PACKETS) {
                log.warn("closing {}: more than {} packets sent before its login was answered", ctx.channel(),
                        MAX_HELD_PACKETS);
                ctx.close();
                return;
            }
            held.add(packet);
            return;
        }
        if (packet.getType() != PacketType.CLIENTAUTHENTICATION) {
            log.warn("closing {}: packet type {} before authentication", ctx.channel(), packet.getType());
            ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST,
                    "packet type: " + packet.getType() + " is NOT supported before authentication!"))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        CanalPacket.ClientAuth auth = CanalPacket.ClientAuth.parseFrom(packet.getBody());
        long delay = throttle.delayMillis(address(ctx));
        if (delay == 0) {
            answer(ctx, auth);
            return;
        }
        answerPending = true;
        ctx.channel().config().setAutoRead(false);
        ctx.executor().schedule(() -> {
            answerPending = false;
            ctx.channel().config().setAutoRead(true);
            if (ctx.channel().isActive()) {
                answer(ctx, auth);
            }
        }, delay, TimeUnit.MILLISECONDS);
    }

    private void answer(ChannelHandlerContext ctx, CanalPacket.ClientAuth auth) {
        if (!accepts(auth)) {
            refuse(ctx, auth);
        } else {
            admit(ctx, auth);
        }
    }

    private void refuse(ChannelHandlerContext ctx, CanalPacket.ClientAuth auth) {
        failures++;
        int unreported = throttle.failed(address(ctx));
        if (unreported > 0) {
            log.warn("authentication of user {} from {} failed ({} failed login(s) since the last such warning)",
                    UntrustedText.quote(auth.getUsername()), ctx.channel().remoteAddress(), unreported);
        }
        var reply = ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST,
                "auth failed for user:" + auth.getUsername()));
        if (failures >= config.limits().maxAuthFailures()) {
            log.debug("closing {} after {} failed logins ({})", ctx.channel(), failures,
                    ClientLimits.AUTH_MAX_FAILURES.name());
            held.clear();
            reply.addListener(ChannelFutureListener.CLOSE);
            return;
        }
        replayHeld(ctx);
    }

    private void admit(ChannelHandlerContext ctx, CanalPacket.ClientAuth auth) {
        int readIdle = auth.hasNetReadTimeout() && auth.getNetReadTimeout() > 0
                ? auth.getNetReadTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        int writeIdle = auth.hasNetWriteTimeout() && auth.getNetWriteTimeout() > 0
                ? auth.getNetWriteTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        ctx.pipeline().addBefore(sessionHandlerName, "idle",
                new IdleStateHandler(readIdle, writeIdle, 0, TimeUnit.MILLISECONDS));
        ctx.pipeline().addBefore(sessionHandlerName, "idleClose", new IdleCloseHandler());
        frames.authenticated();
        if (!auth.getDestination().isEmpty() && !auth.getClientId().isEmpty()) {
            // may start an instance: not on the event loop, and ahead of every later request of this client
            session.submit(() -> processor.subscribeAtAuth(session, auth));
        } else {
            ctx.writeAndFlush(Packets.success(ctx.alloc()));
        }
        log.info("{} authenticated as user {}", ctx.channel(), UntrustedText.quote(auth.getUsername()));
        while (!held.isEmpty()) {
            ctx.fireChannelRead(held.poll()); // to the session handler, after the success reply
        }
        ctx.pipeline().remove(this);
    }

    /** Handles the packets that arrived while a refused login waited for its answer, until one waits again. */
    private void replayHeld(ChannelHandlerContext ctx) {
        while (!answerPending && !held.isEmpty() && ctx.channel().isActive()) {
            try {
                channelRead0(ctx, held.poll());
            } catch (Exception e) {
                ctx.fireExceptionCaught(e);
                return;
            }
        }
    }

    private static InetAddress address(ChannelHandlerContext ctx) {
        return ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress();
    }

    /** Canal's decision table. */
    private boolean accepts(CanalPacket.ClientAuth auth) {
        return config.credentials().accepts(auth.getUsername(), auth.getPassword().toByteArray(), session.seed());
    }
}
