package dev.canal.binlog.net;

import dev.canal.binlog.io.MalformedDataException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;

/**
 * Frames MySQL client/server packets over a socket: a 3-byte little-endian payload length and a 1-byte sequence
 * id, a logical packet of 16 MiB - 1 or more continuing in further packets until one is shorter. Reads through a
 * private buffer (no synchronisation, no per-packet allocation besides the payload) so the binlog reader can pull
 * event bytes straight into the event's own array. A logical packet longer than the connection's maximum
 * ({@link NetworkOptions#maxPacketSize()}) is refused; a long one is assembled as its pieces arrive, never sized
 * from what the server claims.
 *
 * <p>One thread at a time (the connection's owner); {@link #close()} may come from any thread.
 */
final class PacketChannel {

    static final int MAX_PAYLOAD = 0xFF_FFFF;
    private static final int HEADER_LENGTH = 4;
    private static final int READ_BUFFER = 64 * 1024;

    private final String peer;
    private final int maxPacketSize;
    private final Socket plainSocket;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final byte[] buf = new byte[READ_BUFFER];
    private int bufPos;
    private int bufLimit;
    private int sequence;
    private final byte[] header = new byte[HEADER_LENGTH];
    private volatile boolean closed;

    PacketChannel(Socket socket, String peer, int maxPacketSize) throws IOException {
        this.peer = peer;
        this.maxPacketSize = maxPacketSize;
        this.plainSocket = socket;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** For tests: frames packets over arbitrary streams. */
    PacketChannel(InputStream in, OutputStream out, String peer) {
        this(in, out, peer, NetworkOptions.DEFAULT_MAX_PACKET_SIZE);
    }

    /** For tests: frames packets over arbitrary streams, refusing those longer than {@code maxPacketSize}. */
    PacketChannel(InputStream in, OutputStream out, String peer, int maxPacketSize) {
        this.peer = peer;
        this.maxPacketSize = maxPacketSize;
        this.plainSocket = null;
        this.in = in;
        this.out = out;
    }

    String peer() {
        return peer;
    }

    int maxPacketSize() {
        return maxPacketSize;
    }

    Socket socket() {
        return socket;
    }

    /** Starts a new command: the next packet written carries sequence id 0. */
    void resetSequence() {
        sequence = 0;
    }

    /** Continues the conversation over a TLS socket layered on the same connection (after SSLRequest). */
    void switchTo(Socket tlsSocket) throws IOException {
        if (bufPos != bufLimit) {
            throw new MalformedDataException("server sent " + (bufLimit - bufPos) + " unexpected bytes before TLS from " + peer);
        }
        socket = tlsSocket;
        in = tlsSocket.getInputStream();
        out = tlsSocket.getOutputStream();
    }

    /** Writes one logical packet, split into 16 MiB pieces when needed. */
    void writePacket(byte[] payload) throws IOException {
        int offset = 0;
        int remaining = payload.length;
        try {
            while (true) {
                int chunk = Math.min(remaining, MAX_PAYLOAD);
                header[0] = (byte) chunk;
                header[1] = (byte) (chunk >>> 8);
                header[2] = (byte) (chunk >>> 16);
                header[3] = (byte) sequence;
                sequence = (sequence + 1) & 0xFF;
                out.write(header);
                out.write(payload, offset, chunk);
                offset += chunk;
                remaining -= chunk;
                if (chunk < MAX_PAYLOAD) {
                    break; // a full-size piece is always followed by another, possibly empty
                }
            }
            out.flush();
        } catch (IOException e) {
            throw lost("write to", e);
        }
    }

    /** Reads one logical packet, reassembling 16 MiB pieces. */
    byte[] readPacket() throws IOException {
        int length = readHeader();
        requireWithinMax(length);
        byte[] packet = new byte[length];
        readFully(packet, 0, length);
        while (length == MAX_PAYLOAD) {
            length = readHeader();
            int at = packet.length;
            requireWithinMax((long) at + length);
            packet = Arrays.copyOf(packet, at + length);
            readFully(packet, at, length);
        }
        return packet;
    }

    /** @throws MalformedDataException when a packet or event of {@code length} bytes exceeds the maximum */
    void requireWithinMax(long length) {
        if (length > maxPacketSize) {
            throw new MalformedDataException("the server " + peer + " sends a packet of " + length
                    + " bytes or more, above the maximum of " + maxPacketSize + " (maxPacketSize)");
        }
    }

    /** Reads the next packet header, checks its sequence id, and returns the payload length. */
    int readHeader() throws IOException {
        readFully(header, 0, HEADER_LENGTH);
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        int seq = header[3] & 0xFF;
        if (seq != sequence) {
            throw new MalformedDataException("packet out of order from " + peer + ": sequence id " + seq
                    + ", expected " + sequence);
        }
        sequence = (seq + 1) & 0xFF;
        return length;
    }

    int readByte() throws IOException {
        if (bufPos == bufLimit) {
            fill();
        }
        return buf[bufPos++] & 0xFF;
    }

    void readFully(byte[] dst, int offset, int length) throws IOException {
        int buffered = Math.min(length, bufLimit - bufPos);
        System.arraycopy(buf, bufPos, dst, offset, buffered);
        bufPos += buffered;
        offset += buffered;
        length -= buffered;
        while (length > 0) {
            if (length >= buf.length) {
                int n = read(dst, offset, length); // large payloads bypass the buffer
                offset += n;
                length -= n;
            } else {
                fill();
                int n = Math.min(length, bufLimit);
                System.arraycopy(buf, 0, dst, offset, n);
                bufPos = n;
                offset += n;
                length -= n;
            }
        }
    }

    boolean isClosed() {
        return closed;
    }

    void close() {
        closed = true;
        // the plain socket first: it unblocks a reader at once, where closing a TLS socket may wait for that reader
        closeQuietly(plainSocket);
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException | RuntimeException e) {
            // closing a socket that is already broken; nothing left to release
        }
    }

    private void fill() throws IOException {
        bufPos = 0;
        bufLimit = 0;
        bufLimit = read(buf, 0, buf.length);
    }

    private int read(byte[] dst, int offset, int length) throws IOException {
        int n;
        try {
            n = in.read(dst, offset, length);
        } catch (IOException e) {
            throw lost("read from", e);
        }
        if (n < 0) {
            throw new ConnectionLostException(closed ? "connection to " + peer + " was closed locally"
                    : "connection closed by the server " + peer);
        }
        return n;
    }

    private ConnectionLostException lost(String action, IOException e) {
        String why = closed ? " (closed locally)" : "";
        return new ConnectionLostException(action + " " + peer + " failed" + why + ": " + e, e);
    }
}
