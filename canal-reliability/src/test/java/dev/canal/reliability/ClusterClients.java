package dev.canal.reliability;

import dev.canal.testsupport.ChildJvm;
import dev.canal.testsupport.OfficialClientClassPath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ClusterClientMain} in a JVM of its own, and what it received: per destination, every inserted row in
 * arrival order, a new session each time the row came from another server than the one before, and the times the
 * connector gave up ({@code RETRY}).
 */
final class ClusterClients implements AutoCloseable {

    /** A received row and the port of the server that delivered it. */
    record Delivery(ReceivedRow row, int serverPort) {
    }

    private final ChildJvm jvm;
    private final Map<String, List<Delivery>> received = new HashMap<>(); // guarded by this
    private final Map<String, Integer> lastPort = new HashMap<>(); // guarded by this
    private final Map<String, Integer> sessions = new HashMap<>(); // guarded by this
    private final List<String> retries = new ArrayList<>(); // guarded by this

    private ClusterClients(String zkServers, long pollMillis, List<String> destinations, Path logDir)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(zkServers, Long.toString(pollMillis)));
        args.addAll(destinations);
        destinations.forEach(d -> received.put(d, new ArrayList<>()));
        jvm = ChildJvm.start("cluster-clients", OfficialClientClassPath.with(ClusterClientMain.class), List.of(),
                ClusterClientMain.class, args, logDir, this::onLine);
    }

    /** Starts the clients, each polling every {@code pollMillis} while its destination has nothing new. */
    static ClusterClients start(String zkServers, long pollMillis, List<String> destinations, Path logDir)
            throws Exception {
        return new ClusterClients(zkServers, pollMillis, destinations, logDir);
    }

    private synchronized void onLine(ChildJvm.Line line) {
        String[] f = line.text().split(" ");
        if (f[0].equals("RETRY")) {
            retries.add(line.text());
        } else if (f[0].equals("ROW") && f.length == 7) {
            String destination = f[1];
            int port = Integer.parseInt(f[6]);
            Integer previous = lastPort.put(destination, port);
            int session = sessions.merge(destination, previous == null || previous == port ? 0 : 1, Integer::sum);
            ReceivedRow row = new ReceivedRow(f[2], Integer.parseInt(f[3]),
                    new BinlogPoint(f[4], Long.parseLong(f[5])), session, line.nanos());
            received.get(destination).add(new Delivery(row, port));
        }
    }

    synchronized List<ReceivedRow> rows(String destination) {
        return received.get(destination).stream().map(Delivery::row).toList();
    }

    synchronized int count(String destination) {
        return received.get(destination).size();
    }

    /** The first row the destination's client received after {@code nanos} from the server on {@code port}. */
    synchronized Optional<Delivery> firstFrom(String destination, int port, long nanos) {
        return received.get(destination).stream()
                .filter(d -> d.serverPort() == port && d.row().receivedAtNanos() > nanos).findFirst();
    }

    /** For a failure report: the port of the server that delivered the destination's last row and its retries. */
    synchronized String lastDelivery(String destination) {
        List<Delivery> rows = received.get(destination);
        String last = rows.isEmpty() ? "no row" : "last row from port " + rows.get(rows.size() - 1).serverPort();
        return last + ", retries " + retries.stream().filter(r -> r.startsWith("RETRY " + destination + " ")).toList();
    }

    /** The connector gave up this often (each time after its own retries, 5 s apart). */
    synchronized List<String> retries() {
        return List.copyOf(retries);
    }

    @Override
    public void close() throws Exception {
        jvm.close();
    }
}
