package dev.canal.server.netty;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.server.ServerConfig;
import dev.canal.store.StoreConfig;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Request latency of the official client against our server, epoll (TCP_QUICKACK re-armed) versus NIO, on
 * an empty stream so only the protocol round trip counts. Shows the Nagle + delayed-ACK stall the client's
 * two-write requests suffer without quick ACKs (see {@link QuickAckHandler}). Not a test; run it with:
 *
 * <pre>
 * mvn -B -q -pl canal-server -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp canal-server/target/test-classes:canal-server/target/classes:$(cat /tmp/cp.txt) \
 *     dev.canal.server.netty.RoundTripBenchmark [requests]
 * </pre>
 */
public final class RoundTripBenchmark {

    private static final int WARMUP = 200;

    private RoundTripBenchmark() {
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        for (boolean epoll : new boolean[] {true, false}) {
            try (RunningServer server = RunningServer.with(ServerConfig.open(0), StoreConfig.itemSize(64),
                    MemoryMetaManager::new, epoll)) {
                CanalConnector client = CanalConnectors.newSingleConnector(
                        new InetSocketAddress("127.0.0.1", server.port()), RunningServer.DESTINATION, "", "");
                client.connect();
                client.subscribe();
                for (int i = 0; i < WARMUP; i++) {
                    client.getWithoutAck(10);
                }
                long[] micros = new long[requests];
                for (int i = 0; i < requests; i++) {
                    long started = System.nanoTime();
                    client.getWithoutAck(10);
                    micros[i] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started);
                }
                client.disconnect();
                Arrays.sort(micros);
                System.out.printf("transport=%s requests=%d p50=%dus p99=%dus max=%dus%n", server.tcp.transport(),
                        requests, micros[requests / 2], micros[requests * 99 / 100], micros[requests - 1]);
            }
        }
    }
}
