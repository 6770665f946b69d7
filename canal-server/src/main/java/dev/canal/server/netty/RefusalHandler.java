package dev.canal.server.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The whole pipeline of a connection beyond a connection cap ({@code canal.client.max.connections} or
 * {@code canal.client.max.connections.per.address}). It gets a HANDSHAKE followed at once by error 400 naming the
 * limit, in Canal's ACK form: a client that authenticates
 * reads the error as its authentication reply, so the official client reports the reason rather than "expect
 * handshake but found other type". Whatever the client sends is dropped unread; the connection is closed when
 * the client closes it or after {@value #LINGER_MILLIS} ms. Closing only then means the client's authentication
 * packet has been read, so the close is no reset that could discard the error before the client reads it.
 */
public final class RefusalHandler extends ChannelInboundHandlerAdapter {

    static final long LINGER_MILLIS = 1000;
    private static final byte[] NO_SEED = new byte[8]; // nobody authenticates against it

    private final Function<ByteBufAllocator, List<ByteBuf>> refusal;
    private ScheduledFuture<?> close; // event loop only

    /** Refuses a client-port connection: Canal's HANDSHAKE, then error 400 with {@code text}. */
    static RefusalHandler clientPort(String text) {
        return new RefusalHandler(alloc -> List.of(Packets.handshake(alloc, NO_SEED),
                Packets.error(alloc, Packets.ERROR_BAD_REQUEST, text)));
    }

    /** @param refusal the frames a refused connection is sent: its port's greeting and an error naming the limit */
    public RefusalHandler(Function<ByteBufAllocator, List<ByteBuf>> refusal) {
        this.refusal = refusal;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        refusal.apply(ctx.alloc()).forEach(ctx::write);
        ctx.flush();
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
