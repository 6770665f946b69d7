package dev.canal.server.admin;

import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.PacketType;
import dev.canal.server.netty.AuthScramble;
import dev.canal.protocol.UntrustedText;
import dev.canal.server.netty.Credentials;
import dev.canal.server.netty.FrameDecoder;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admin connection: the handshake on connect, then CLIENTAUTHENTICATION checked against
 * {@code canal.admin.user} / {@code canal.admin.passwd} with the client port's scheme, then requests. The handler
 * runs on one thread of the admin port's request executors, never on the event loop (a server stop takes
 * seconds), so a connection's requests run one at a time and their answers leave in request order.
 *
 * <p>Unlike Canal, whose admin handler sends error 300 and then the success ACK anyway, a wrong user or password
 * gets error 300 only and the connection is closed (docs/admin.md); so does any other packet before
 * authentication, and a connection that has not authenticated within its deadline. After authentication the frame
 * limit rises to the full one, and the connection is closed when idle longer than the client's
 * {@code net_read_timeout} / {@code net_write_timeout} (milliseconds), one hour when it gives none.
 */
final class AdminConnectionHandler extends SimpleChannelInboundHandler<AdminPacket.Packet> {

    private static final Logger log = LoggerFactory.getLogger(AdminConnectionHandler.class);
    static final int DEFAULT_IDLE_TIMEOUT_MILLIS = 3_600_000;

    private final Credentials credentials;
    private final AdminRequests requests;
    private final FrameDecoder frames;
    private final int authTimeoutMillis;
    private byte[] seed; // this handler's executor only
    private boolean authenticated; // this handler's executor only
    private ScheduledFuture<?> deadline; // this handler's executor only

    AdminConnectionHandler(Credentials credentials, AdminRequests requests, FrameDecoder frames,
            int authTimeoutMillis) {
        this.credentials = credentials;
        this.requests = requests;
        this.frames = frames;
        this.authTimeoutMillis = authTimeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        seed = AuthScramble.newSeed();
        ctx.writeAndFlush(AdminPackets.handshake(ctx.alloc(), seed));
        deadline = ctx.executor().schedule(() -> {
            if (!authenticated) {
                log.warn("closing admin connection {}: not authenticated within {} ms", ctx.channel(),
                        authTimeoutMillis);
                refuse(ctx, "authentication not completed within " + authTimeoutMillis + " ms");
            }
        }, authTimeoutMillis, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false);
        }
        ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, AdminPacket.Packet packet) throws Exception {
        if (!authenticated) {
            authenticate(ctx, packet);
            return;
        }
        ctx.writeAndFlush(AdminPackets.ack(ctx.alloc(), requests.handle(packet)));
    }

    private void authenticate(ChannelHandlerContext ctx, AdminPacket.Packet packet) throws Exception {
        if (packet.getType() != PacketType.CLIENTAUTHENTICATION) {
            log.warn("closing admin connection {}: packet type {} before authentication", ctx.channel(),
                    packet.getType());
            refuse(ctx, "packet type " + packet.getType() + " is not supported before authentication");
            return;
        }
        AdminPacket.ClientAuth auth = AdminPacket.ClientAuth.parseFrom(packet.getBody());
        if (!credentials.accepts(auth.getUsername(), auth.getPassword().toByteArray(), seed)) {
            log.warn("admin authentication of user {} from {} failed (canal.admin.user / canal.admin.passwd)",
                    UntrustedText.quote(auth.getUsername()), ctx.channel().remoteAddress());
            refuse(ctx, "auth failed for user:" + auth.getUsername());
            return;
        }
        authenticated = true;
        deadline.cancel(false);
        frames.authenticated();
        int readIdle = auth.hasNetReadTimeout() && auth.getNetReadTimeout() > 0
                ? auth.getNetReadTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        int writeIdle = auth.hasNetWriteTimeout() && auth.getNetWriteTimeout() > 0
                ? auth.getNetWriteTimeout() : DEFAULT_IDLE_TIMEOUT_MILLIS;
        ctx.pipeline().addBefore(ctx.name(), "idle", new IdleStateHandler(readIdle, writeIdle, 0, TimeUnit.MILLISECONDS));
        ctx.writeAndFlush(AdminPackets.ack(ctx.alloc(), AdminPacket.Ack.newBuilder().setCode(0).build()));
        log.info("admin connection {} authenticated as user {}", ctx.channel(), UntrustedText.quote(auth.getUsername()));
    }

    private static void refuse(ChannelHandlerContext ctx, String message) {
        ctx.writeAndFlush(AdminPackets.ack(ctx.alloc(), AdminRequests.error(AdminRequests.ERROR_AUTH, message)))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            log.warn("closing admin connection {}: idle timeout exceeded", ctx.channel());
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("closing admin connection {} after bad input: {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
