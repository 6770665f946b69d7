package dev.canal.deployer.admin;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.PacketType;
import dev.canal.server.netty.AuthScramble;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * What canal-admin does on a server's admin port, written from the protocol (docs/admin.md): 4-byte big-endian
 * length frames around AdminPacket {@code Packet}s; read the HANDSHAKE's seed, send CLIENTAUTHENTICATION with the
 * password scrambled with it, read the ACK; then one request, one ACK.
 */
final class AdminPortClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final byte[] seed;

    AdminPortClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
        AdminPacket.Packet handshake = readPacket();
        if (handshake.getType() != PacketType.HANDSHAKE || handshake.getVersion() != 1) {
            throw new IOException("expected a version-1 HANDSHAKE, got " + handshake);
        }
        seed = AdminPacket.Handshake.parseFrom(handshake.getBody()).getSeeds().toByteArray();
    }

    /** Logs in with the plain password; the ACK tells whether it was accepted. */
    AdminPacket.Ack login(String user, String password) throws IOException {
        return request(PacketType.CLIENTAUTHENTICATION, AdminPacket.ClientAuth.newBuilder().setUsername(user)
                .setPassword(ByteString.copyFromUtf8(AuthScramble.scramble(password, seed)))
                .setNetReadTimeout(60_000).setNetWriteTimeout(60_000).build());
    }

    AdminPacket.Ack server(String action) throws IOException {
        return request(PacketType.SERVER, AdminPacket.ServerAdmin.newBuilder().setAction(action).build());
    }

    AdminPacket.Ack instance(String destination, String action) throws IOException {
        return request(PacketType.INSTANCE,
                AdminPacket.InstanceAdmin.newBuilder().setDestination(destination).setAction(action).build());
    }

    AdminPacket.Ack log(AdminPacket.LogAdmin request) throws IOException {
        return request(PacketType.LOG, request);
    }

    AdminPacket.Ack request(PacketType type, MessageLite body) throws IOException {
        byte[] packet = AdminPacket.Packet.newBuilder().setType(type).setBody(body.toByteString()).build()
                .toByteArray();
        out.writeInt(packet.length);
        out.write(packet);
        out.flush();
        return read();
    }

    /** The next ACK the server sends, asked for or not (a refusal, a deadline passed). */
    AdminPacket.Ack read() throws IOException {
        AdminPacket.Packet reply = readPacket();
        if (reply.getType() != PacketType.ACK) {
            throw new IOException("expected an ACK, got " + reply.getType());
        }
        return AdminPacket.Ack.parseFrom(reply.getBody());
    }

    /** Whether the server closed the connection (a read finds its end). */
    boolean closedByServer() throws IOException {
        return in.read() < 0;
    }

    private AdminPacket.Packet readPacket() throws IOException {
        byte[] packet = new byte[in.readInt()];
        in.readFully(packet);
        try {
            return AdminPacket.Packet.parseFrom(packet);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("not an admin packet", e);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
