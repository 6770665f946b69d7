package dev.canal.binlog.net;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An authenticated connection speaking MySQL's client/server protocol (our own implementation; no JDBC), used as the
 * replication connection: text queries for the session set-up, then handed to a {@link ReplicaSession} for the
 * binlog dump. One thread at a time; {@link #close()} may be called from any thread.
 */
public final class MysqlConnection implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(MysqlConnection.class);

    static final byte COM_QUIT = 0x01;
    static final byte COM_QUERY = 0x03;
    static final byte COM_PING = 0x0E;
    private static final int OK = 0x00;
    private static final int EOF = 0xFE;
    /** An EOF packet is shorter than this; a row may also start with 0xFE (an 8-byte length) but is longer. */
    private static final int MAX_EOF_LENGTH = 9;
    /** MySQL's limit on the columns of a table, far above what a result set of ours has. */
    private static final int MAX_COLUMNS = 4096;

    private final PacketChannel channel;
    private final ServerVersion version;
    private final long connectionId;
    private final boolean secure;
    private final AuthMethod authMethod;
    private final String address;
    private volatile boolean streaming; // set once the connection carries a binlog stream; read by close()

    private MysqlConnection(PacketChannel channel, Handshake handshake, boolean secure, AuthMethod authMethod,
            String address) {
        this.channel = channel;
        this.version = ServerVersion.parse(handshake.serverVersion());
        this.connectionId = handshake.connectionId();
        this.secure = secure;
        this.authMethod = authMethod;
        this.address = address;
    }

    /** Connects, negotiates TLS as {@code options.ssl()} says, and logs in. */
    public static MysqlConnection open(ConnectionOptions options) throws IOException {
        Socket socket = new Socket();
        PacketChannel channel = null;
        try {
            NetworkOptions net = options.network();
            socket.setReceiveBufferSize(net.receiveBufferSize()); // before connect, so the TCP window is negotiated
            socket.setSendBufferSize(net.sendBufferSize());
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(options.host(), options.port()), (int) net.connectTimeout().toMillis());
            socket.setSoTimeout((int) net.soTimeout().toMillis());
            channel = new PacketChannel(socket, options.address(), options.network().maxPacketSize());
            return login(channel, socket, options);
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            } else {
                socket.close();
            }
            if (e instanceof MysqlServerException || e instanceof ConnectionLostException
                    || e instanceof MalformedDataException) {
                throw e;
            }
            throw new IOException("cannot connect to " + options.address() + " as '" + options.user() + "': " + e, e);
        }
    }

    private static MysqlConnection login(PacketChannel channel, Socket socket, ConnectionOptions options)
            throws IOException {
        byte[] greeting = channel.readPacket();
        if (greeting.length > 0 && (greeting[0] & 0xFF) == MysqlServerException.ERROR_MARKER) {
            throw MysqlServerException.fromPacket(greeting, "connect to " + options.address());
        }
        Handshake handshake = Handshake.parse(greeting);
        int capabilities = CapabilityFlags.CLIENT_DEFAULT & handshake.capabilities();
        if (options.defaultSchema() != null && !options.defaultSchema().isBlank()) {
            capabilities |= CapabilityFlags.CONNECT_WITH_DB & handshake.capabilities();
        }
        boolean secure = false;
        SslMode mode = options.ssl().mode();
        if (mode != SslMode.DISABLED) {
            if (handshake.has(CapabilityFlags.SSL)) {
                capabilities |= CapabilityFlags.SSL;
                channel.writePacket(Authenticator.sslRequest(capabilities));
                channel.switchTo(TlsUpgrade.handshake(socket, options.host(), options.port(), options.ssl()));
                secure = true;
            } else if (mode != SslMode.PREFERRED) {
                throw new IOException("server " + options.address() + " (" + handshake.serverVersion()
                        + ") does not support TLS, but sslMode is " + mode);
            } else {
                log.info("server {} offers no TLS; sslMode PREFERRED continues without it", options.address());
            }
        }
        AuthMethod method = new Authenticator(channel, options, secure).authenticate(handshake, capabilities);
        log.debug("logged in to {} ({}) as {} via {}, connection id {}", options.address(), handshake.serverVersion(),
                options.user(), method, handshake.connectionId());
        return new MysqlConnection(channel, handshake, secure, method, options.address());
    }

    public ServerVersion serverVersion() {
        return version;
    }

    /** The server's thread id of this connection (what SHOW PROCESSLIST and KILL use). */
    public long connectionId() {
        return connectionId;
    }

    public boolean isSecure() {
        return secure;
    }

    public AuthMethod authMethod() {
        return authMethod;
    }

    public String address() {
        return address;
    }

    /** Runs one statement with COM_QUERY; a result set comes back as strings, other statements as an empty result. */
    public QueryResult query(String sql) throws IOException {
        checkUsable();
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] command = new byte[1 + text.length];
        command[0] = COM_QUERY;
        System.arraycopy(text, 0, command, 1, text.length);
        channel.resetSequence();
        channel.writePacket(command);
        byte[] first = readResponse(sql);
        if ((first[0] & 0xFF) == OK) {
            LittleEndianCursor in = new LittleEndianCursor(first, 1, first.length - 1);
            return new QueryResult(List.of(), List.of(), in.lengthEncodedInt());
        }
        long count = new LittleEndianCursor(first).lengthEncodedInt();
        if (count < 1 || count > MAX_COLUMNS) {
            throw new MalformedDataException("bad column count " + count + " in the reply to '" + sql + "' from " + address);
        }
        int columnCount = (int) count;
        List<String> columns = new ArrayList<>(columnCount);
        for (int i = 0; i < columnCount; i++) {
            columns.add(columnName(readResponse(sql)));
        }
        expectEof(readResponse(sql), sql);
        List<List<String>> rows = new ArrayList<>();
        while (true) {
            byte[] row = readResponse(sql);
            if (isEof(row)) {
                return new QueryResult(columns, rows, 0);
            }
            LittleEndianCursor r = new LittleEndianCursor(row);
            List<String> values = new ArrayList<>(columnCount);
            for (int i = 0; i < columnCount; i++) {
                values.add(r.lengthEncodedString());
            }
            rows.add(Collections.unmodifiableList(values));
        }
    }

    /** Runs a statement and ignores any result. */
    public void execute(String sql) throws IOException {
        query(sql);
    }

    /** COM_PING: proves the server still answers on this connection. */
    public void ping() throws IOException {
        checkUsable();
        channel.resetSequence();
        channel.writePacket(new byte[] {COM_PING});
        readResponse("COM_PING");
    }

    /** Says COM_QUIT when the connection is idle, then closes the socket. Safe to call more than once. */
    @Override
    public void close() {
        if (channel.isClosed()) {
            return;
        }
        if (!streaming) {
            try {
                channel.resetSequence();
                channel.writePacket(new byte[] {COM_QUIT});
            } catch (IOException | RuntimeException e) {
                log.debug("COM_QUIT to {} failed, closing anyway: {}", address, e.toString());
            }
        }
        channel.close();
    }

    /** Hands the socket over to a binlog stream: from now on it carries only events. */
    PacketChannel startStreaming() {
        checkUsable();
        streaming = true;
        return channel;
    }

    String localHostAddress() {
        return channel.socket().getLocalAddress().getHostAddress();
    }

    long soTimeoutMillis() throws IOException {
        return channel.socket().getSoTimeout();
    }

    int localPort() {
        return channel.socket().getLocalPort();
    }

    void sendCommand(byte[] command) throws IOException {
        checkUsable();
        channel.resetSequence();
        channel.writePacket(command);
    }

    /** Reads a reply packet; an error packet becomes a {@link MysqlServerException} naming {@code what}. */
    byte[] readResponse(String what) throws IOException {
        byte[] packet = channel.readPacket();
        if (packet.length == 0) {
            throw new MalformedDataException("empty packet from " + address + " in reply to " + what);
        }
        if ((packet[0] & 0xFF) == MysqlServerException.ERROR_MARKER) {
            throw MysqlServerException.fromPacket(packet, "'" + what + "' on " + address);
        }
        return packet;
    }

    private void checkUsable() {
        if (streaming) {
            throw new IllegalStateException("connection " + address + " carries a binlog stream; open another for queries");
        }
        if (channel.isClosed()) {
            throw new IllegalStateException("connection " + address + " is closed");
        }
    }

    private static boolean isEof(byte[] packet) {
        return (packet[0] & 0xFF) == EOF && packet.length < MAX_EOF_LENGTH;
    }

    private void expectEof(byte[] packet, String sql) {
        if (!isEof(packet)) {
            throw new MalformedDataException("expected EOF after the column definitions of '" + sql + "' from " + address);
        }
    }

    /** ColumnDefinition41: catalog, schema, table, org_table, then the name we want. */
    private static String columnName(byte[] packet) {
        LittleEndianCursor in = new LittleEndianCursor(packet);
        for (int i = 0; i < 4; i++) {
            in.lengthEncodedString();
        }
        return in.lengthEncodedString();
    }
}
