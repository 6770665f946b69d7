package dev.canal.binlog.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;

/**
 * Reader-thread throughput of {@link BinlogStream}: framing, reassembly and CRC32 over a real loopback socket, fed
 * by a thread that replays a synthetic dump (no server, no decoding). Not a test; run by hand:
 *
 * <pre>
 * mvn -B -q -pl canal-binlog test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp canal-binlog/target/test-classes:canal-binlog/target/classes:$(cat /tmp/cp.txt) \
 *     dev.canal.binlog.net.BinlogStreamBenchmark [eventBytes] [events] [rounds]
 * </pre>
 */
public final class BinlogStreamBenchmark {

    private BinlogStreamBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int eventBytes = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 500_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        byte[] wire = syntheticDump(eventBytes, events);
        System.out.printf("event %d bytes, %d events per round, %.1f MiB per round%n", eventBytes, events,
                wire.length / 1048576.0);
        for (int round = 1; round <= rounds; round++) {
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Thread feeder = new Thread(() -> feed(server, wire), "feeder");
                feeder.start();
                Socket socket = new Socket();
                socket.setReceiveBufferSize(NetworkOptions.defaults().receiveBufferSize()); // before connect, as in use
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
                BinlogStream stream = new BinlogStream(new PacketChannel(socket, "loopback", NetworkOptions.DEFAULT_MAX_PACKET_SIZE), BinlogChecksumType.CRC32,
                        "bench.000001", "bench");
                long started = System.nanoTime();
                long count = 0;
                long bytes = 0;
                for (byte[] e; (e = stream.next()) != null; ) {
                    count++;
                    bytes += e.length;
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                stream.close();
                feeder.join();
                System.out.printf("round %d: %,d events in %.3f s = %,.0f events/s, %.0f MiB/s%n", round, count, seconds,
                        count / seconds, bytes / 1048576.0 / seconds);
            }
        }
    }

    private static void feed(ServerSocket server, byte[] wire) {
        try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
            out.write(wire);
        } catch (IOException e) {
            throw new IllegalStateException("feeder failed", e);
        }
    }

    /** Events of random bytes with valid headers and CRC32, each in an OK packet, then an EOF packet. */
    private static byte[] syntheticDump(int eventBytes, int events) throws IOException {
        Random random = new Random(42);
        ByteArrayOutputStream payloads = new ByteArrayOutputStream();
        PacketChannel writer = new PacketChannel(new java.io.ByteArrayInputStream(new byte[0]), payloads, "bench");
        long position = 4;
        for (int i = 0; i < events; i++) {
            byte[] body = new byte[eventBytes - 19 - 4];
            random.nextBytes(body);
            position += eventBytes;
            byte[] event = BinlogStreamTest.event(30, position, body);
            byte[] packet = new byte[event.length + 1];
            System.arraycopy(event, 0, packet, 1, event.length);
            writer.writePacket(packet);
        }
        writer.writePacket(new byte[] {(byte) 0xFE, 0, 0, 2, 0});
        return payloads.toByteArray();
    }
}
