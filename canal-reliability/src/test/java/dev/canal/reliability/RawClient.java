package dev.canal.reliability;

import com.alibaba.otter.canal.protocol.CanalPacket;
import com.google.protobuf.ByteString;
import dev.canal.server.netty.AuthScramble;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/**
 * A hand-driven connection to the client port,
 * for sending what no well-behaved client sends.
 */
final class RawClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawClient(int port, int readTimeoutMillis) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(readTimeoutMillis);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Reads the server's HANDSHAKE and returns its seed. */
    byte[] handshake() throws IOException {
        CanalPacket.Packet packet = readPacket();
        if (packet.getType() != CanalPacket.PacketType.HANDSHAKE) {
            throw new IOException("expected a HANDSHAKE, got " + packet.getType());
        }
        return CanalPacket.Handshake.parseFrom(packet.getBody()).getSeeds().toByteArray();
    }

    CanalPacket.Packet readPacket() throws IOException {
        int length = in.readInt();
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return CanalPacket.Packet.parseFrom(bytes);
    }

    /** The ACK the server answered with (its error code, 0 for success). */
    CanalPacket.Ack readAck() throws IOException {
        CanalPacket.Packet packet = readPacket();
        if (packet.getType() != CanalPacket.PacketType.ACK) {
            throw new IOException("expected an ACK, got " + packet.getType());
        }
        return CanalPacket.Ack.parseFrom(packet.getBody());
    }

    /** Reads the handshake and logs in as {@code user} with the plain {@code password}; returns the server's ACK. */
    CanalPacket.Ack login(String user, String password) throws IOException {
        byte[] seed = handshake();
        return tryLogin(user, password, seed);
    }

    /** Sends one login attempt against the handshake's {@code seed}; returns the server's ACK. */
    CanalPacket.Ack tryLogin(String user, String password, byte[] seed) throws IOException {
        sendPacket(CanalPacket.PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder().setUsername(user)
                .setPassword(ByteString.copyFromUtf8(AuthScramble.scramble(password, seed))).build().toByteString());
        return readAck();
    }

    /** Subscribes client 1001 to {@code destination} with {@code filter}; returns the server's ACK. */
    CanalPacket.Ack subscribe(String destination, String filter) throws IOException {
        sendPacket(CanalPacket.PacketType.SUBSCRIPTION, CanalPacket.Sub.newBuilder().setDestination(destination)
                .setClientId("1001").setFilter(filter).build().toByteString());
        return readAck();
    }

    /** Asks client 1001's next batch of {@code destination} without waiting for the answer. */
    void sendGet(String destination, int fetchSize) throws IOException {
        sendPacket(CanalPacket.PacketType.GET, CanalPacket.Get.newBuilder().setDestination(destination)
                .setClientId("1001").setFetchSize(fetchSize).build().toByteString());
    }

    /** Rolls back every batch of client 1001 of {@code destination}; the server answers nothing. */
    void sendRollback(String destination) throws IOException {
        sendPacket(CanalPacket.PacketType.CLIENTROLLBACK, CanalPacket.ClientRollback.newBuilder()
                .setDestination(destination).setClientId("1001").build().toByteString());
    }

    void sendPacket(CanalPacket.PacketType type, ByteString body) throws IOException {
        byte[] bytes = CanalPacket.Packet.newBuilder().setType(type).setBody(body).build().toByteArray();
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** True when the server closed this connection (end of stream or reset) before the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (EOFException | SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
