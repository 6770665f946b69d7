package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollSocketChannel;

/**
 * Keeps TCP_QUICKACK armed on epoll sockets. The official client writes each request's 4-byte length and
 * its body in two writes without TCP_NODELAY, so Nagle holds the body until the length is acknowledged;
 * with Linux's delayed ACK that costs up to 40 ms per request. Linux leaves quick-ack mode on its own, so
 * the option is set again after every read. On NIO this handler does nothing.
 */
final class QuickAckHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        arm(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public boolean isSharable() {
        return true;
    }

    private static void arm(ChannelHandlerContext ctx) {
        if (ctx.channel() instanceof EpollSocketChannel epoll && epoll.isActive()) {
            epoll.config().setTcpQuickAck(true);
        }
    }
}
