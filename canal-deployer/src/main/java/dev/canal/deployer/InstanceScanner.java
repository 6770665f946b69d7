package dev.canal.deployer;

import dev.canal.instance.spring.SpringCanalInstanceGenerator;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Canal's auto scan: every interval, each folder of the conf dir holding an
 * instance.properties (the {@code spring} folder aside) is compared with what was last seen. A new folder is
 * deployed, an edited file redeploys only its destination, a removed folder or file stops its destination.
 * A broken edit is reported once and leaves the running instance as it was; the next edit is tried again.
 * Nothing a scan finds ever stops the process.
 *
 * <p>A file counts as edited when its modification time changed, as in Canal, so touching it restarts its
 * destination; or when its content changed, so two edits within the file system's time resolution are not
 * missed (docs/compatibility.md, auto scan).
 */
final class InstanceScanner {

    private static final Logger log = LoggerFactory.getLogger(InstanceScanner.class);
    private static final String SPRING_FOLDER = "spring";

    private final Path confDir;
    private final Destinations destinations;
    private final Duration interval;
    /** Each destination's instance.properties as last acted on; scanner thread only. */
    private final Map<String, FileState> seen = new HashMap<>();
    /** Folders already warned about for a name that is no valid destination name; scanner thread only. */
    private final Set<String> unservable = new HashSet<>();
    private ScheduledExecutorService executor;

    InstanceScanner(Path confDir, Destinations destinations, Duration interval) {
        this.confDir = confDir;
        this.destinations = destinations;
        this.interval = interval;
    }

    /** Starts scanning; the destinations deployed at boot count as seen in their current state. */
    synchronized void start(List<String> bootDestinations) {
        for (String destination : bootDestinations) {
            seen.put(destination, FileState.of(SpringCanalInstanceGenerator.instanceFile(confDir, destination)));
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "canal-instance-scan");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(this::scanSafely, millis, millis, TimeUnit.MILLISECONDS);
        log.info("scanning {} for instance changes every {} s", confDir.toAbsolutePath(), interval.toSeconds());
    }

    synchronized void stop() {
        if (executor == null) {
            return;
        }
        executor.shutdown(); // a scan in progress finishes; the destinations ignore it once stopped
        try {
            executor.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
    }

    private void scanSafely() {
        try {
            scan();
        } catch (RuntimeException e) {
            log.error("scanning {} failed; trying again in {} s", confDir, interval.toSeconds(), e);
        }
    }

    private void scan() {
        Map<String, Path> present = instanceFiles();
        for (Map.Entry<String, Path> entry : present.entrySet()) {
            String destination = entry.getKey();
            FileState state = FileState.of(entry.getValue());
            FileState before = seen.get(destination);
            if (state == null || state.equals(before)) {
                continue;
            }
            seen.put(destination, state);
            apply(destination, before == null);
        }
        for (String destination : List.copyOf(seen.keySet())) {
            if (!present.containsKey(destination)) {
                seen.remove(destination);
                log.info("destination {}: its instance.properties is gone, stopping it", destination);
                destinations.undeploy(destination);
            }
        }
    }

    private void apply(String destination, boolean isNew) {
        boolean wasDeployed = destinations.deployed().contains(destination);
        try {
            if (wasDeployed) {
                log.info("destination {}: instance.properties changed, restarting it", destination);
                destinations.redeploy(destination);
            } else {
                log.info("destination {}: {}, starting it", destination,
                        isNew ? "new instance folder" : "configuration fixed");
                destinations.deploy(destination);
            }
        } catch (RuntimeException e) {
            log.error("destination {}: the {} configuration is not applied ({}); {}", destination,
                    isNew ? "new" : "edited", e.getMessage(),
                    wasDeployed ? "the running instance keeps its previous configuration" : "it is not started");
        }
    }

    /** Destination name to its instance.properties. */
    private Map<String, Path> instanceFiles() {
        Map<String, Path> files = new HashMap<>();
        try (Stream<Path> folders = Files.list(confDir)) {
            for (Path folder : (Iterable<Path>) folders::iterator) {
                String name = folder.getFileName().toString();
                if (!Files.isDirectory(folder) || name.equalsIgnoreCase(SPRING_FOLDER)) {
                    continue;
                }
                if (!DestinationNameRule.isWellFormed(name)) {
                    if (unservable.add(name)) {
                        log.warn("folder {} of {} is not deployed: that is no valid destination name (letters, "
                                + "digits, _, - and .)", UntrustedText.quote(name), confDir);
                    }
                    continue;
                }
                Path file = folder.resolve(SpringCanalInstanceGenerator.INSTANCE_FILE);
                if (Files.isRegularFile(file)) {
                    files.put(name, file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + confDir, e);
        }
        return files;
    }

    /** What a scan compares: the file's modification time and the SHA-256 of its bytes. */
    private record FileState(FileTime modified, String digest) {

        /** The file's state, or null when it vanished between listing and reading. */
        static FileState of(Path file) {
            try {
                FileTime modified = Files.getLastModifiedTime(file);
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
                return new FileState(modified, HexFormat.of().formatHex(digest));
            } catch (IOException e) {
                return null;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this JVM", e);
            }
        }
    }
}
