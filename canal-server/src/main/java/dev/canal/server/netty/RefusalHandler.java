package dev.canal.server.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * The whole pipeline of a connection beyond {@code canal.client.max.connections}: instead of the handshake it
 * gets error 400 naming the limit, in Canal's ACK form (canal-compat.md 2.5), and is closed; whatever it sends
 * is dropped unread. The official client reports "expect handshake but found other type".
 */
final class RefusalHandler extends ChannelInboundHandlerAdapter {

    private final int maxConnections;

    RefusalHandler(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ByteBuf error = Packets.error(ctx.alloc(), Packets.ERROR_BAD_REQUEST, "too many client connections: "
                + "this server accepts at most " + maxConnections + " (" + ServerConfig.MAX_CONNECTIONS_KEY + ")");
        ctx.writeAndFlush(error).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        ReferenceCountUtil.release(message);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset while the error is on its way: nothing to report
    }
}
