package dev.canal.server.netty;

import dev.canal.protocol.CanalPacket;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/** Hands each request of an authenticated client to its session queue, off the event loop. */
final class SessionHandler extends SimpleChannelInboundHandler<CanalPacket.Packet> {

    private final ChannelSession session;
    private final RequestProcessor processor;

    SessionHandler(ChannelSession session, RequestProcessor processor) {
        this.session = session;
        this.processor = processor;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, CanalPacket.Packet packet) {
        // every request but a GET changes state (cursor, outstanding batches, subscription, a destination's start)
        // and still counts when the client closes right after sending it: the official client's ack(id);
        // disconnect() does exactly that, and so does a subscribe() that failed on quirk 11's rollback error.
        // A GET whose client has gone is dropped: nobody would receive the batch it makes.
        boolean mustRun = packet.getType() != CanalPacket.PacketType.GET;
        session.submit(() -> processor.handle(session, packet), mustRun);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        session.writabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }
}
