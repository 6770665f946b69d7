package dev.canal.meta;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Memory meta manager whose subscriptions and cursors are persisted to {@code {dataDir}/{destination}/meta.dat}
 * (Canal's FileMixedMetaManager, the shipped default). Batch marks stay in memory.
 *
 * <p>The file of a destination is rewritten every {@code period} ms when one of its cursors changed, at
 * once on subscribe and unsubscribe, and on stop; it is not written while the destination has no
 * subscribed client. Every write is atomic ({@link MetaFile}). {@link #start()} loads the {@code meta.dat} of
 * the destination it serves (every one under the data directory when built without one) and fails, naming
 * the file, if it cannot be read: a bad file is never silently replaced by an empty state. An instance's
 * manager is built for its destination, so a corrupt file of another destination sharing the data directory
 * does not stop it.
 *
 * <p>Each flush logs one line per client to the logger named after this class, which Canal's logback
 * configuration routes to {@code logs/{destination}/meta.log} via the MDC key {@code destination}.
 */
public final class FileMixedMetaManager extends MemoryMetaManager {

    public static final long DEFAULT_PERIOD_MILLIS = 1000;

    private static final Logger log = LoggerFactory.getLogger(FileMixedMetaManager.class);
    private static final String MDC_DESTINATION = "destination";

    private final Path dataDir;
    private final long periodMillis;
    /** the destination whose file start() loads; null to load every one on disk */
    private final String destination;
    private final Set<String> changedDestinations = ConcurrentHashMap.newKeySet();
    private final ConcurrentMap<String, String> addressTexts = new ConcurrentHashMap<>();
    private final Object fileLock = new Object();
    private ScheduledExecutorService flusher; // guarded by this

    public FileMixedMetaManager(Path dataDir) {
        this(dataDir, DEFAULT_PERIOD_MILLIS);
    }

    public FileMixedMetaManager(Path dataDir, long periodMillis) {
        this(dataDir, periodMillis, null);
    }

    /** A manager for one destination's instance: {@link #start()} loads only that destination's file. */
    public FileMixedMetaManager(Path dataDir, long periodMillis, String destination) {
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("flush period must be positive, was " + periodMillis);
        }
        this.dataDir = dataDir;
        this.periodMillis = periodMillis;
        this.destination = destination;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The file holding the destination's subscriptions and cursors. */
    public Path metaFile(String destination) {
        return MetaFile.of(dataDir, destination);
    }

    /** @throws MetaManagerException naming the file when an existing meta.dat cannot be loaded */
    @Override
    public synchronized void start() {
        if (isStart()) {
            return;
        }
        for (String onDisk : destination != null ? List.of(destination) : destinationsOnDisk()) {
            ensureLoaded(onDisk);
        }
        flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "canal-meta-file-flush-"
                    + (destination != null ? destination : dataDir.getFileName()));
            thread.setDaemon(true);
            return thread;
        });
        flusher.scheduleWithFixedDelay(this::flushChanged, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        super.start();
    }

    /** Writes every destination with unwritten cursor changes, then forgets the in-memory state. */
    @Override
    public synchronized void stop() {
        if (!isStart()) {
            return;
        }
        flusher.shutdown();
        try {
            if (!flusher.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("meta flusher for {} did not finish within 10 s", dataDir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MetaManagerException failure = null;
        for (String destination : List.copyOf(changedDestinations)) {
            changedDestinations.remove(destination);
            try {
                flush(destination);
            } catch (MetaManagerException e) {
                failure = failure == null ? e : failure;
                log.error("final flush of meta file {} failed", metaFile(destination), e);
            }
        }
        super.stop();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void subscribe(ClientIdentity client) {
        super.subscribe(client);
        flush(ConsumerName.destinationOf(client.destination()));
    }

    @Override
    public void unsubscribe(ClientIdentity client) {
        super.unsubscribe(client);
        flush(ConsumerName.destinationOf(client.destination()));
    }

    @Override
    public void updateCursor(ClientIdentity client, LogPosition position) {
        super.updateCursor(client, position);
        changedDestinations.add(ConsumerName.destinationOf(client.destination()));
    }

    @Override
    LoadedDestination loadDestination(String destination) {
        Path file = metaFile(destination);
        if (!Files.exists(file)) {
            return LoadedDestination.EMPTY;
        }
        DestinationMeta meta = MetaFile.read(file, destination);
        List<ClientIdentity> clients = new ArrayList<>();
        Map<ClientIdentity, LogPosition> cursors = new HashMap<>();
        for (DestinationMeta.ClientData data : meta.clientDatas()) {
            clients.add(data.clientIdentity());
            if (data.cursor() != null) {
                cursors.put(data.clientIdentity(), data.cursor());
            }
        }
        log.debug("loaded {} client(s) of {} from {}", clients.size(), destination, file);
        return new LoadedDestination(clients, cursors, Map.of());
    }

    private List<String> destinationsOnDisk() {
        if (!Files.isDirectory(dataDir)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(dataDir)) {
            return dirs.filter(dir -> Files.isRegularFile(dir.resolve(MetaFile.FILE_NAME)))
                    .map(dir -> dir.getFileName().toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new MetaManagerException("cannot list meta data directory " + dataDir + ": " + e, e);
        }
    }

    /** Periodic task: a failed write is logged and retried on the next round. */
    private void flushChanged() {
        for (String destination : List.copyOf(changedDestinations)) {
            if (!changedDestinations.remove(destination)) {
                continue;
            }
            try {
                flush(destination);
            } catch (RuntimeException e) {
                changedDestinations.add(destination);
                log.error("flush of meta file {} failed, retrying in {} ms", metaFile(destination), periodMillis, e);
            }
        }
    }

    private void flush(String destination) {
        String previousDestination = MDC.get(MDC_DESTINATION);
        MDC.put(MDC_DESTINATION, destination);
        try {
            synchronized (fileLock) { // snapshot and write together, so an older snapshot never lands last
                // named consumers (docs/consumers.md) are kept in their destination's file, after its own clients
                List<ClientIdentity> clients = listSubscribedNames(destination).stream()
                        .flatMap(name -> listAllSubscribeInfo(name).stream())
                        .toList();
                if (clients.isEmpty()) {
                    return; // as Canal: the file keeps its last content once no client is left
                }
                List<DestinationMeta.ClientData> datas = clients.stream()
                        .map(client -> new DestinationMeta.ClientData(client, getCursor(client)))
                        .toList();
                MetaFile.write(metaFile(destination), new DestinationMeta(destination, datas));
                datas.forEach(this::logFlushed);
            }
        } finally {
            if (previousDestination == null) {
                MDC.remove(MDC_DESTINATION);
            } else {
                MDC.put(MDC_DESTINATION, previousDestination);
            }
        }
    }

    /** Canal's meta.log line: {@code clientId:1001 cursor:[file,pos,ts,serverId,gtid] address[host/ip:port]}. */
    private void logFlushed(DestinationMeta.ClientData data) {
        LogPosition cursor = data.cursor();
        if (cursor == null || cursor.position() == null || !log.isInfoEnabled()) {
            return;
        }
        EntryPosition entry = cursor.position();
        log.info("clientId:{} cursor:[{},{},{},{},{}] address[{}]", data.clientIdentity().clientId(),
                entry.journalName(), entry.position(), entry.timestamp(), entry.serverId(), entry.gtid(),
                addressText(cursor.identity()));
    }

    /** InetSocketAddress's text form, as Canal prints it; resolved once per address since it may ask DNS. */
    private String addressText(LogIdentity identity) {
        if (identity == null || identity.address() == null) {
            return "null";
        }
        return addressTexts.computeIfAbsent(identity.address() + ":" + identity.port(),
                key -> new InetSocketAddress(identity.address(), identity.port()).toString());
    }
}
