package dev.canal.server.netty;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/** A bare-socket client speaking Canal's framing with our own packet classes, for byte-level tests. */
final class WireClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    WireClient(int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Connects, reads the handshake and authenticates without credentials. */
    static WireClient authenticated(int port) throws IOException {
        WireClient client = new WireClient(port);
        client.readPacket(); // handshake
        client.send(PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder().build().toByteString());
        CanalPacket.Ack ack = client.readAck();
        if (ack.getErrorCode() != 0) {
            throw new IllegalStateException("auth failed: " + ack.getErrorMessage());
        }
        return client;
    }

    void send(PacketType type, ByteString body) throws IOException {
        writeFrame(CanalPacket.Packet.newBuilder().setType(type).setBody(body).build().toByteArray());
    }

    void writeFrame(byte[] packet) throws IOException {
        out.writeInt(packet.length);
        out.write(packet);
        out.flush();
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    byte[] readFrame() throws IOException {
        int length = in.readInt();
        byte[] packet = new byte[length];
        in.readFully(packet);
        return packet;
    }

    CanalPacket.Packet readPacket() throws IOException {
        return CanalPacket.Packet.parseFrom(readFrame());
    }

    CanalPacket.Ack readAck() throws IOException {
        CanalPacket.Packet packet = readPacket();
        if (packet.getType() != PacketType.ACK) {
            throw new IllegalStateException("expected an ACK, got " + packet.getType());
        }
        return CanalPacket.Ack.parseFrom(packet.getBody());
    }

    CanalPacket.Messages readMessages() throws IOException {
        CanalPacket.Packet packet = readPacket();
        if (packet.getType() != PacketType.MESSAGES) {
            throw new IllegalStateException("expected MESSAGES, got " + packet.getType() + ": "
                    + parseAckQuietly(packet));
        }
        return CanalPacket.Messages.parseFrom(packet.getBody());
    }

    void subscribe(String destination, String clientId, String filter) throws IOException {
        send(PacketType.SUBSCRIPTION, CanalPacket.Sub.newBuilder().setDestination(destination)
                .setClientId(clientId).setFilter(filter).build().toByteString());
    }

    void get(String destination, int size, long timeout) throws IOException {
        send(PacketType.GET, CanalPacket.Get.newBuilder().setDestination(destination).setClientId("1001")
                .setFetchSize(size).setTimeout(timeout).setUnit(2).setAutoAck(false).build().toByteString());
    }

    void ack(String destination, long batchId) throws IOException {
        send(PacketType.CLIENTACK, CanalPacket.ClientAck.newBuilder().setDestination(destination)
                .setClientId("1001").setBatchId(batchId).build().toByteString());
    }

    void rollback(String destination, long batchId) throws IOException {
        send(PacketType.CLIENTROLLBACK, CanalPacket.ClientRollback.newBuilder().setDestination(destination)
                .setClientId("1001").setBatchId(batchId).build().toByteString());
    }

    /** Whether the server closed the connection: a read sees end of stream (or a reset) within the socket timeout. */
    boolean closedByServer() {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (EOFException | SocketException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void soTimeout(int millis) throws SocketException {
        socket.setSoTimeout(millis);
    }

    private static String parseAckQuietly(CanalPacket.Packet packet) {
        try {
            return CanalPacket.Ack.parseFrom(packet.getBody()).getErrorMessage();
        } catch (InvalidProtocolBufferException e) {
            return "(unparsable body)";
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
