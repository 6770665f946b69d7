package dev.canal.server.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.security.SecureRandom;

/** On connect, sends HANDSHAKE with 8 fresh random seed bytes (canal-compat.md 2.3) and leaves the pipeline. */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private static final int SEED_LENGTH = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ChannelSession session;

    HandshakeHandler(ChannelSession session) {
        this.session = session;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        byte[] seed = new byte[SEED_LENGTH];
        RANDOM.nextBytes(seed);
        session.seed(seed); // before the write, so an auth can never find the seed missing
        ctx.writeAndFlush(Packets.handshake(ctx.alloc(), seed));
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }
}
