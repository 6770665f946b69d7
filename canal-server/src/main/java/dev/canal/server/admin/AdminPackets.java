package dev.canal.server.admin;

import com.google.protobuf.ByteString;
import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.PacketType;
import dev.canal.server.netty.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Encodes the admin port's packets as whole frames; every packet carries version 1, as on the client port. */
final class AdminPackets {

    static final int VERSION = 1;

    private AdminPackets() {
    }

    static ByteBuf handshake(ByteBufAllocator alloc, byte[] seed) {
        return frame(alloc, PacketType.HANDSHAKE,
                AdminPacket.Handshake.newBuilder().setSeeds(ByteString.copyFrom(seed)).build().toByteString());
    }

    static ByteBuf ack(ByteBufAllocator alloc, AdminPacket.Ack ack) {
        return frame(alloc, PacketType.ACK, ack.toByteString());
    }

    private static ByteBuf frame(ByteBufAllocator alloc, PacketType type, ByteString body) {
        return Frames.frame(alloc,
                AdminPacket.Packet.newBuilder().setVersion(VERSION).setType(type).setBody(body).build().toByteArray());
    }
}
