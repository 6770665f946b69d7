package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** On connect, sends HANDSHAKE with 8 fresh random seed bytes and leaves the pipeline. */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private final ChannelSession session;

    HandshakeHandler(ChannelSession session) {
        this.session = session;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        byte[] seed = AuthScramble.newSeed();
        session.seed(seed); // before the write, so an auth can never find the seed missing
        ctx.writeAndFlush(Packets.handshake(ctx.alloc(), seed));
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }
}
