package dev.canal.bench;

import com.alibaba.otter.canal.client.CanalConnector;
import com.alibaba.otter.canal.client.CanalConnectors;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.Message;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many destinations in one daemon: our deployer ({@code CanalLauncher}, the shipped {@code conf/canal.properties}
 * and {@code file-instance.xml}, the stage JVM options that {@code bin/startup.sh} gives) with N destinations on
 * the one source, each with its own replica server id and the bench table's filter, and N official clients in
 * this JVM, one per destination.
 *
 * <p>Two daemons per N. The idle one starts every destination at the end of the workload's binlog: start-up time
 * (launch to every client subscribed), then, after a settling pause and a full collection, resident memory, heap
 * in use, threads and the CPU it spends doing nothing. The loaded one starts every destination at the workload's
 * start, so all N catch up at once, each client draining with batch 1000: wall time, rows/s delivered in all,
 * server CPU per delivered row, peak resident memory and threads, when the first and the last destination were
 * done (fairness), and whether the daemon ran out of memory.
 */
final class DestinationsStage {

    private static final Logger log = LoggerFactory.getLogger(DestinationsStage.class);
    private static final int BATCH = 1000;
    private static final long SETTLE_MILLIS = 3000;
    private static final long IDLE_CPU_MILLIS = 5000;
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);
    /** Away from the other stages' replica server ids. */
    private static final long FIRST_SERVER_ID = Target.SERVER_ID + 100;
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    /**
     * What the heap-sizing rule proposed for bin/startup.sh adds per configured destination (docs/performance.md,
     * "Many destinations"): room for its parser's ring and a client's batch; its store shares a quarter of the heap.
     */
    static final int HEAP_MIB_PER_DESTINATION = 8;
    /** bin/startup.sh's heap without destinations counted (its cap). */
    static final int BASE_HEAP_MIB = 384;

    /** How the daemon's heap is sized: as bin/startup.sh does today, or also by its destinations. */
    enum Heap {
        SHIPPED, SCALED;

        List<String> options(int destinations) {
            return this == SHIPPED ? List.of()
                    : List.of("-Xmx" + (BASE_HEAP_MIB + HEAP_MIB_PER_DESTINATION * destinations) + "m");
        }
    }

    /** One daemon measured idle. */
    record Idle(int destinations, Heap heap, double startupSeconds, long rssKb, long heapUsedKb, long threads,
            double cpuMillisPerSecond) {
    }

    /** One daemon measured while all its destinations catch up. */
    record Loaded(int destinations, Heap heap, double seconds, long rowsDelivered, long cpuNanos, long peakRssKb,
            long peakThreads, double firstDoneSeconds, double lastDoneSeconds, boolean outOfMemory,
            boolean allRows, String digest) {

        double rowsPerSecond() {
            return rowsDelivered / seconds;
        }
    }

    private DestinationsStage() {
    }

    static Idle idle(Target target, Workload.Loaded workload, ChildJvm jvm, int destinations, Heap heap)
            throws Exception {
        String label = "destinations-" + destinations + "-idle-" + heap.name().toLowerCase();
        Path dir = jvm.nextLogDir(label);
        try (Daemon daemon = Daemon.start(jvm, dir, target, workload.endFile(), workload.endPosition(),
                destinations, heap, label)) {
            List<CanalConnector> clients = daemon.subscribeAll();
            double startup = (System.nanoTime() - daemon.launched) / 1e9;
            Thread.sleep(SETTLE_MILLIS);
            daemon.fullGc();
            long heapUsed = daemon.heapUsedKb();
            long cpu = daemon.meter.cpuNanos();
            Thread.sleep(IDLE_CPU_MILLIS);
            double cpuMillisPerSecond = (daemon.meter.cpuNanos() - cpu) / 1e6 / (IDLE_CPU_MILLIS / 1000.0);
            Files.writeString(dir.resolve("threads.txt"), daemon.jcmd("Thread.print"));
            Idle idle = new Idle(destinations, heap, startup, daemon.meter.rssKb(), heapUsed, daemon.meter.threads(),
                    cpuMillisPerSecond);
            clients.forEach(CanalConnector::disconnect);
            log.info("{}: {}", label, idle);
            return idle;
        }
    }

    static Loaded load(Target target, ChildJvm jvm, int destinations, Heap heap) throws Exception {
        String label = "destinations-" + destinations + "-load-" + heap.name().toLowerCase();
        Path dir = jvm.nextLogDir(label);
        try (Daemon daemon = Daemon.start(jvm, dir, target, target.file(), target.position(), destinations,
                heap, label)) {
            List<CanalConnector> clients = daemon.subscribeAll();
            AtomicLong peakThreads = new AtomicLong(daemon.meter.threads());
            long cpu = daemon.meter.cpuNanos();
            long started = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(destinations + 1);
            Future<?> sampler = pool.submit(() -> sampleThreads(daemon.meter, peakThreads));
            RowDigest digest = new RowDigest();
            List<Future<Long>> done = new ArrayList<>();
            long[] rows = new long[destinations];
            for (int i = 0; i < destinations; i++) {
                int index = i;
                done.add(pool.submit(() -> drain(clients.get(index), target.rowChanges(), rows, index,
                        index == 0 ? digest : null)));
            }
            long first = Long.MAX_VALUE;
            long last = 0;
            boolean allRows = true;
            for (Future<Long> f : done) {
                try {
                    long at = f.get() - started;
                    first = Math.min(first, at);
                    last = Math.max(last, at);
                } catch (java.util.concurrent.ExecutionException e) {
                    log.warn("{}: a client failed: {}", label, e.getCause().toString());
                    allRows = false;
                }
            }
            long nanos = System.nanoTime() - started;
            long cpuNanos = daemon.meter.cpuNanos() - cpu;
            long peakRss = daemon.meter.peakRssKb();
            sampler.cancel(true);
            pool.shutdownNow();
            clients.forEach(c -> {
                try {
                    c.disconnect();
                } catch (RuntimeException ignored) {
                    // the daemon may be gone
                }
            });
            long delivered = 0;
            for (long r : rows) {
                delivered += r;
            }
            boolean oom = Files.readString(daemon.log).contains("OutOfMemoryError");
            Loaded loaded = new Loaded(destinations, heap, nanos / 1e9, delivered, cpuNanos, peakRss, peakThreads.get(),
                    first == Long.MAX_VALUE ? Double.NaN : first / 1e9, last / 1e9, oom, allRows, digest.value());
            log.info("{}: {}", label, loaded);
            return loaded;
        }
    }

    private static Void sampleThreads(ProcessMeter meter, AtomicLong peak) throws InterruptedException {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                peak.accumulateAndGet(meter.threads(), Math::max);
            } catch (RuntimeException gone) {
                return null;
            }
            Thread.sleep(200);
        }
        return null;
    }

    /** Drains one destination until all its row changes arrived; returns when, by {@link System#nanoTime()}. */
    private static long drain(CanalConnector client, long expected, long[] rows, int index, RowDigest digest)
            throws Exception {
        long lastRow = System.nanoTime();
        while (rows[index] < expected) {
            Message message = client.getWithoutAck(BATCH, 1000L, TimeUnit.MILLISECONDS);
            long before = rows[index];
            for (CanalEntry.Entry entry : message.getEntries()) {
                rows[index] += rowsCount(entry);
                if (digest != null) {
                    EntryDigests.addOfficial(entry, digest);
                }
            }
            if (message.getId() != -1) {
                client.ack(message.getId());
            }
            long now = System.nanoTime();
            if (rows[index] > before) {
                lastRow = now;
            } else if (now - lastRow > STALL_NANOS) {
                throw new IllegalStateException("destination " + (index + 1) + ": no row for 60 s after "
                        + rows[index] + " of " + expected);
            }
        }
        return System.nanoTime();
    }

    private static long rowsCount(CanalEntry.Entry entry) {
        for (CanalEntry.Pair prop : entry.getHeader().getPropsList()) {
            if (prop.getKey().equals("rowsCount")) {
                return Long.parseLong(prop.getValue());
            }
        }
        return 0;
    }

    static String name(int index) {
        return String.format("d%02d", index + 1);
    }

    /** Our deployer in a child JVM with N generated destinations. */
    private static final class Daemon implements AutoCloseable {

        private final ChildJvm.Running process;
        private final ProcessMeter meter;
        private final Path log;
        private final long launched;
        private final int port;
        private final int destinations;

        private Daemon(ChildJvm.Running process, long launched, int port, int destinations) {
            this.process = process;
            this.meter = ProcessMeter.of(process.pid());
            this.log = process.log();
            this.launched = launched;
            this.port = port;
            this.destinations = destinations;
        }

        static Daemon start(ChildJvm jvm, Path dir, Target target, String file, long position, int destinations,
                Heap heap, String label) throws IOException {
            int port = freePort();
            Path canalProperties = writeConf(dir, target, file, position, destinations, port);
            Path shippedConf = Path.of("conf");
            long launched = System.nanoTime();
            List<String> options = new ArrayList<>(heap.options(destinations));
            options.add("-Dcanal.conf=" + canalProperties.toAbsolutePath());
            ChildJvm.Running process = jvm.startMain("dev.canal.deployer.CanalLauncher", options,
                    List.of(shippedConf), List.of(), label);
            drainOutput(process.stdout());
            return new Daemon(process, launched, port, destinations);
        }

        /** Connects and subscribes one client per destination, retrying while the daemon starts. */
        List<CanalConnector> subscribeAll() throws Exception {
            List<CanalConnector> clients = new ArrayList<>();
            long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
            for (int i = 0; i < destinations; i++) {
                CanalConnector client = CanalConnectors.newSingleConnector(
                        new InetSocketAddress("127.0.0.1", port), name(i), "", "");
                while (true) {
                    if (!process.process().isAlive()) {
                        throw new IllegalStateException("the daemon exited; see " + log);
                    }
                    try {
                        client.connect();
                        client.subscribe();
                        break;
                    } catch (RuntimeException notYet) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException("destination " + name(i) + " not up after 120 s; see "
                                    + log, notYet);
                        }
                        try {
                            client.disconnect();
                        } catch (RuntimeException ignored) {
                            // not connected
                        }
                        Thread.sleep(100);
                    }
                }
                clients.add(client);
            }
            return clients;
        }

        void fullGc() throws IOException, InterruptedException {
            jcmd("GC.run");
        }

        /** The heap in use now, from {@code jcmd GC.heap_info}: the sum of its spaces' "used". */
        long heapUsedKb() throws IOException, InterruptedException {
            String info = jcmd("GC.heap_info");
            long used = 0;
            for (String line : info.split("\n")) {
                String trimmed = line.trim();
                if (trimmed.startsWith("PSYoungGen") || trimmed.startsWith("ParOldGen")
                        || trimmed.startsWith("garbage-first heap") || trimmed.startsWith("def new generation")
                        || trimmed.startsWith("tenured generation")) {
                    Matcher m = HEAP_USED.matcher(trimmed);
                    if (m.find()) {
                        used += Long.parseLong(m.group(1));
                    }
                }
            }
            return used;
        }

        String jcmd(String command) throws IOException, InterruptedException {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()), command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return out;
        }

        @Override
        public void close() throws IOException {
            process.process().destroy(); // SIGTERM: the shutdown hook stops the instances
            try {
                if (!process.process().waitFor(30, TimeUnit.SECONDS)) {
                    process.process().destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.process().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }

        private static Path writeConf(Path dir, Target target, String file, long position, int destinations,
                int port) throws IOException {
            Properties canal = new Properties();
            try (InputStream in = Files.newInputStream(Path.of("conf", "canal.properties"))) {
                canal.load(in);
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < destinations; i++) {
                names.add(name(i));
                Properties instance = target.parserProperties(true);
                instance.setProperty("canal.instance.master.journal.name", file);
                instance.setProperty("canal.instance.master.position", Long.toString(position));
                instance.setProperty("canal.instance.mysql.slaveId", Long.toString(FIRST_SERVER_ID + i));
                Path instanceDir = dir.resolve(name(i));
                Files.createDirectories(instanceDir);
                store(instance, instanceDir.resolve("instance.properties"));
            }
            canal.setProperty("canal.port", Integer.toString(port));
            canal.setProperty("canal.metrics.pull.port", "0");
            canal.setProperty("canal.destinations", String.join(",", names));
            canal.setProperty("canal.conf.dir", dir.toAbsolutePath().toString());
            canal.setProperty("canal.file.data.dir", dir.toAbsolutePath().toString());
            canal.setProperty("canal.auto.scan", "false");
            Path canalProperties = dir.resolve("canal.properties");
            store(canal, canalProperties);
            return canalProperties;
        }

        private static void store(Properties p, Path to) throws IOException {
            try (OutputStream out = Files.newOutputStream(to)) {
                p.store(out, null);
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0)) {
                return s.getLocalPort();
            }
        }

        private static void drainOutput(InputStream out) {
            Thread drain = new Thread(() -> {
                try {
                    out.transferTo(OutputStream.nullOutputStream());
                } catch (IOException ended) {
                    // the daemon is gone
                }
            }, "drain-daemon");
            drain.setDaemon(true);
            drain.start();
        }
    }
}
