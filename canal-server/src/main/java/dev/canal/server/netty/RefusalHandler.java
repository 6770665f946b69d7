package dev.canal.server.netty;

import dev.canal.server.ServerConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The whole pipeline of a connection beyond {@code canal.client.max.connections}. It gets a HANDSHAKE followed at
 * once by error 400 naming the limit, in Canal's ACK form: a client that authenticates
 * reads the error as its authentication reply, so the official client reports the reason rather than "expect
 * handshake but found other type". Whatever the client sends is dropped unread; the connection is closed when
 * the client closes it or after {@value #LINGER_MILLIS} ms. Closing only then means the client's authentication
 * packet has been read, so the close is no reset that could discard the error before the client reads it.
 */
final class RefusalHandler extends ChannelInboundHandlerAdapter {

    static final long LINGER_MILLIS = 1000;
    private static final byte[] NO_SEED = new byte[8]; // nobody authenticates against it

    private final int maxConnections;
    private ScheduledFuture<?> close; // event loop only

    RefusalHandler(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.write(Packets.handshake(ctx.alloc(), NO_SEED));
        ctx.writeAndFlush(Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST, "too many client connections: "
                + "this server accepts at most " + maxConnections + " (" + ServerConfig.MAX_CONNECTIONS.name() + ")"));
        close = ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        ReferenceCountUtil.release(message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (close != null) {
            close.cancel(false);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset while the error is on its way: nothing to report
    }
}
