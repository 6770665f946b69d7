package dev.canal.deployer.demo;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalPacket;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.time.Instant;
import java.util.stream.Collectors;

/**
 * The demo's console client: speaks Canal's TCP protocol to a running server without a
 * password, subscribes to one destination and prints every change as it arrives, one line per row.
 *
 * <pre>java dev.canal.deployer.demo.ConsoleClient host port destination [filter [changes]]</pre>
 *
 * With {@code changes} it exits after printing that many row changes; without, it runs until stopped.
 */
public final class ConsoleClient {

    private static final String CLIENT_ID = "1001";
    private static final int FETCH_SIZE = 100;
    private static final long WAIT_MILLIS = 1000;
    private static final int MILLISECONDS = 2; // TimeUnit ordinal on the wire

    private final DataInputStream in;
    private final DataOutputStream out;
    private final String destination;
    private final PrintStream console;

    private ConsoleClient(Socket socket, String destination, PrintStream console) throws IOException {
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = new DataOutputStream(socket.getOutputStream());
        this.destination = destination;
        this.console = console;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: ConsoleClient host port destination [filter [changes]]");
            System.exit(2);
        }
        try (Socket socket = new Socket(args[0], Integer.parseInt(args[1]))) {
            ConsoleClient client = new ConsoleClient(socket, args[2], System.out);
            client.connect(args.length > 3 ? args[3] : "");
            client.print(args.length > 4 ? Long.parseLong(args[4]) : Long.MAX_VALUE);
        }
    }

    private void connect(String filter) throws IOException {
        CanalPacket.Packet handshake = read();
        if (handshake.getType() != CanalPacket.PacketType.HANDSHAKE) {
            throw new IOException("expected a handshake, got " + handshake.getType());
        }
        send(CanalPacket.PacketType.CLIENTAUTHENTICATION, CanalPacket.ClientAuth.newBuilder().build().toByteString());
        expectAck("authentication");
        send(CanalPacket.PacketType.SUBSCRIPTION, CanalPacket.Sub.newBuilder().setDestination(destination)
                .setClientId(CLIENT_ID).setFilter(filter).build().toByteString());
        expectAck("subscription");
        console.println("subscribed to " + destination + "; waiting for changes (Ctrl-C to stop)");
    }

    /** Prints changes as they arrive until {@code limit} row changes are printed. */
    private void print(long limit) throws IOException {
        long printed = 0;
        while (printed < limit) {
            send(CanalPacket.PacketType.GET, CanalPacket.Get.newBuilder().setDestination(destination)
                    .setClientId(CLIENT_ID).setFetchSize(FETCH_SIZE).setTimeout(WAIT_MILLIS).setUnit(MILLISECONDS)
                    .setAutoAck(false).build().toByteString());
            CanalPacket.Packet reply = read();
            if (reply.getType() != CanalPacket.PacketType.MESSAGES) {
                throw new IOException("server error: " + CanalPacket.Ack.parseFrom(reply.getBody()).getErrorMessage());
            }
            CanalPacket.Messages messages = CanalPacket.Messages.parseFrom(reply.getBody());
            for (ByteString bytes : messages.getMessagesList()) {
                printed += print(CanalEntry.Entry.parseFrom(bytes));
            }
            if (messages.getBatchId() != -1) {
                send(CanalPacket.PacketType.CLIENTACK, CanalPacket.ClientAck.newBuilder().setDestination(destination)
                        .setClientId(CLIENT_ID).setBatchId(messages.getBatchId()).build().toByteString());
            }
        }
    }

    /** Prints one entry; returns the number of row changes it printed. */
    private int print(CanalEntry.Entry entry) throws InvalidProtocolBufferException {
        CanalEntry.Header h = entry.getHeader();
        String at = Instant.ofEpochMilli(h.getExecuteTime()) + " " + h.getLogfileName() + ":" + h.getLogfileOffset();
        switch (entry.getEntryType()) {
            case TRANSACTIONBEGIN -> console.println(at + " BEGIN");
            case TRANSACTIONEND -> console.println(at + " COMMIT");
            case ROWDATA -> {
                CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                String table = h.getSchemaName() + "." + h.getTableName();
                if (change.getRowDatasCount() == 0) {
                    console.println(at + " " + change.getEventType() + (table.equals(".") ? "" : " " + table)
                            + ": " + change.getSql());
                }
                for (CanalEntry.RowData row : change.getRowDatasList()) {
                    String before = row.getBeforeColumnsCount() > 0 ? columns(row.getBeforeColumnsList()) : "";
                    String after = row.getAfterColumnsCount() > 0 ? columns(row.getAfterColumnsList()) : "";
                    console.println(at + " " + change.getEventType() + " " + table + " " + before
                            + (!before.isEmpty() && !after.isEmpty() ? " -> " : "") + after);
                }
                return change.getRowDatasCount();
            }
            default -> { }
        }
        return 0;
    }

    private static String columns(java.util.List<CanalEntry.Column> columns) {
        return columns.stream().map(c -> c.getName() + "=" + (c.getIsNull() ? "NULL" : c.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private void expectAck(String what) throws IOException {
        CanalPacket.Packet reply = read();
        CanalPacket.Ack ack = CanalPacket.Ack.parseFrom(reply.getBody());
        if (reply.getType() != CanalPacket.PacketType.ACK || ack.getErrorCode() > 0) {
            throw new IOException(what + " refused: " + ack.getErrorMessage());
        }
    }

    private void send(CanalPacket.PacketType type, ByteString body) throws IOException {
        byte[] packet = CanalPacket.Packet.newBuilder().setType(type).setBody(body).build().toByteArray();
        out.writeInt(packet.length);
        out.write(packet);
        out.flush();
    }

    private CanalPacket.Packet read() throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 64 * 1024 * 1024) {
            throw new IOException("absurd frame length " + length);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return CanalPacket.Packet.parseFrom(body);
    }
}
