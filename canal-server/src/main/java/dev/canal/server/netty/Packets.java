package dev.canal.server.netty;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Encodes the server's packets as whole frames: a 4-byte big-endian length, then the {@code Packet}
 *. Every packet but a raw MESSAGES carries version 1.
 */
final class Packets {

    static final int VERSION = 1;
    static final int FRAME_HEADER_LENGTH = Frames.HEADER_LENGTH;

    static final int ERROR_BAD_REQUEST = 400;
    static final int ERROR_MISSING_IDENTITY = 401;
    static final int ERROR_BATCH_ID_ZERO = 402;

    // field numbers of Packet and Messages, for the hand-encoded raw MESSAGES packet
    private static final int PACKET_TYPE_FIELD = CanalPacket.Packet.TYPE_FIELD_NUMBER;
    private static final int PACKET_BODY_FIELD = CanalPacket.Packet.BODY_FIELD_NUMBER;
    private static final int MESSAGES_BATCH_ID_FIELD = CanalPacket.Messages.BATCH_ID_FIELD_NUMBER;
    private static final int MESSAGES_ENTRIES_FIELD = CanalPacket.Messages.MESSAGES_FIELD_NUMBER;

    private Packets() {
    }

    static ByteBuf handshake(ByteBufAllocator alloc, byte[] seed) {
        return frame(alloc, PacketType.HANDSHAKE,
                CanalPacket.Handshake.newBuilder().setSeeds(ByteString.copyFrom(seed)).build().toByteString());
    }

    static ByteBuf success(ByteBufAllocator alloc) {
        return frame(alloc, PacketType.ACK, ByteString.EMPTY);
    }

    static ByteBuf error(ByteBufAllocator alloc, int code, String message) {
        return frame(alloc, PacketType.ACK,
                CanalPacket.Ack.newBuilder().setErrorCode(code).setErrorMessage(message).build().toByteString());
    }

    /**
     * A MESSAGES frame. A non-empty raw message is hand-encoded without a version field and with each stored
     * entry's bytes copied verbatim, as Canal does; anything else is a regular version-1 packet.
     */
    static ByteBuf messages(ByteBufAllocator alloc, Message message) {
        if (message.raw() && !message.isEmpty()) {
            return rawMessages(alloc, message);
        }
        CanalPacket.Messages.Builder body = CanalPacket.Messages.newBuilder().setBatchId(message.id());
        if (message.raw()) {
            body.addAllMessages(message.rawEntries());
        } else {
            message.entries().forEach(entry -> body.addMessages(entry.toByteString()));
        }
        return frame(alloc, PacketType.MESSAGES, body.build().toByteString());
    }

    private static ByteBuf frame(ByteBufAllocator alloc, PacketType type, ByteString body) {
        return Frames.frame(alloc,
                CanalPacket.Packet.newBuilder().setVersion(VERSION).setType(type).setBody(body).build().toByteArray());
    }

    /** {@code 18 07 2a <len> 08 <batchId> (12 <len> <entry>)...}. */
    private static ByteBuf rawMessages(ByteBufAllocator alloc, Message message) {
        int bodySize = CodedOutputStream.computeInt64Size(MESSAGES_BATCH_ID_FIELD, message.id());
        for (ByteString entry : message.rawEntries()) {
            bodySize += CodedOutputStream.computeBytesSize(MESSAGES_ENTRIES_FIELD, entry);
        }
        int packetSize = CodedOutputStream.computeEnumSize(PACKET_TYPE_FIELD, PacketType.MESSAGES_VALUE)
                + CodedOutputStream.computeTagSize(PACKET_BODY_FIELD)
                + CodedOutputStream.computeUInt32SizeNoTag(bodySize) + bodySize;
        ByteBuf frame = alloc.buffer(FRAME_HEADER_LENGTH + packetSize);
        try {
            frame.writeInt(packetSize);
            ByteBuffer target = frame.nioBuffer(FRAME_HEADER_LENGTH, packetSize);
            CodedOutputStream out = CodedOutputStream.newInstance(target);
            out.writeEnum(PACKET_TYPE_FIELD, PacketType.MESSAGES_VALUE);
            out.writeTag(PACKET_BODY_FIELD, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(bodySize);
            out.writeInt64(MESSAGES_BATCH_ID_FIELD, message.id());
            for (ByteString entry : message.rawEntries()) {
                out.writeBytes(MESSAGES_ENTRIES_FIELD, entry);
            }
            out.flush();
            out.checkNoSpaceLeft();
            frame.writerIndex(FRAME_HEADER_LENGTH + packetSize);
            return frame;
        } catch (IOException e) {
            frame.release();
            throw new UncheckedIOException("encoding MESSAGES batch " + message.id(), e);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
    }
}
