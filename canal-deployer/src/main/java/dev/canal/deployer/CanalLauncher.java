package dev.canal.deployer;

import dev.canal.instance.spring.InstanceProperties.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process entry point (Canal's CanalLauncher): reads canal.properties from {@code -Dcanal.conf} (a file
 * path or {@code classpath:...}, default {@code classpath:canal.properties}), starts the server with its admin port
 * and, under canal-admin, its manager mode ({@link CanalStarter}), and runs until
 * SIGTERM / SIGINT, when a shutdown hook stops accepting clients, stops the instances (flushing their meta)
 * and, should that hang, forces the exit after {@link #SHUTDOWN_TIMEOUT}. Invalid configuration exits with
 * status 1 and a message naming the file and key.
 */
public final class CanalLauncher {

    private static final Logger log = LoggerFactory.getLogger(CanalLauncher.class);

    public static final String CONF_PROPERTY = "canal.conf";
    public static final String DEFAULT_CONF = "classpath:canal.properties";
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(60);
    private static final String CLASSPATH_PREFIX = "classpath:";

    private CanalLauncher() {
    }

    public static void main(String[] args) {
        // registered before the start: a stop signal that arrives while the server starts stops what it started
        AtomicReference<CanalStarter> running = new AtomicReference<>();
        CountDownLatch startEnded = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            awaitUninterruptibly(startEnded, SHUTDOWN_TIMEOUT);
            CanalStarter starter = running.get();
            if (starter != null) {
                stopWithin(starter::stop, SHUTDOWN_TIMEOUT, () -> Runtime.getRuntime().halt(2));
            }
            stopped.countDown();
        }, "canal-shutdown"));
        try {
            Source canalProperties = loadCanalProperties(System.getProperty(CONF_PROPERTY, DEFAULT_CONF));
            log.info("starting canal server from {}", canalProperties.name());
            running.set(CanalStarter.start(canalProperties));
        } catch (ConfigException e) {
            log.error("canal server not started: {}", e.getMessage(), e);
            System.err.println("canal server not started: " + e.getMessage());
            exitAfterFailedStart(startEnded);
        } catch (Exception e) { // also what a library rethrows undeclared
            log.error("canal server not started", e);
            System.err.println("canal server not started: " + e);
            exitAfterFailedStart(startEnded);
        }
        startEnded.countDown();
        awaitUninterruptibly(stopped, null);
    }

    private static void exitAfterFailedStart(CountDownLatch startEnded) {
        startEnded.countDown(); // before exit, which runs the shutdown hook that waits for it
        System.exit(1);
    }

    /** Waits for the latch, at most {@code timeout} (null: for ever), going on waiting when interrupted. */
    private static void awaitUninterruptibly(CountDownLatch latch, Duration timeout) {
        boolean interrupted = false;
        while (true) {
            try {
                if (timeout == null) {
                    latch.await();
                } else {
                    latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts the server from this configuration, without the admin port and canal-admin's manager mode that main
     * adds ({@link CanalStarter}).
     */
    public static CanalController start(Source canalProperties, String... additionalXml) {
        CanalServerConfig config = CanalServerConfig.load(canalProperties);
        log.info("starting canal server from {}", canalProperties.name());
        CanalController controller = new CanalController(config, additionalXml);
        controller.start();
        return controller;
    }

    /**
     * Stops the server; when stopping takes longer than the timeout, logs it and runs {@code onTimeout} (the
     * shutdown hook halts the JVM: a hung instance must not keep the process alive).
     *
     * @return whether the server stopped in time
     */
    static boolean stopWithin(CanalController controller, Duration timeout, Runnable onTimeout) {
        return stopWithin(controller::stop, timeout, onTimeout);
    }

    private static boolean stopWithin(Runnable stop, Duration timeout, Runnable onTimeout) {
        Thread stopper = new Thread(stop, "canal-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            log.error("canal server did not stop within {} s, forcing exit", timeout.toSeconds());
            onTimeout.run();
            return false;
        }
        return true;
    }

    /** @throws ConfigException naming the location when the file cannot be found or read */
    public static Source loadCanalProperties(String location) {
        Properties properties = new Properties();
        if (location.startsWith(CLASSPATH_PREFIX)) {
            String resource = location.substring(CLASSPATH_PREFIX.length());
            try (InputStream in = CanalLauncher.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ConfigException("no " + location + " (set -D" + CONF_PROPERTY + "=<file>)");
                }
                load(properties, new InputStreamReader(in, StandardCharsets.UTF_8), location);
            } catch (IOException e) {
                throw new ConfigException("cannot read " + location + ": " + e.getMessage(), e);
            }
            return new Source(location, properties);
        }
        Path file = Path.of(location);
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("no configuration file " + file.toAbsolutePath() + " (-D" + CONF_PROPERTY + ")");
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            load(properties, reader, location);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return new Source(file.toString(), properties);
    }

    private static void load(Properties properties, Reader reader, String location) throws IOException {
        try {
            properties.load(reader);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("malformed " + location + ": " + e.getMessage(), e);
        }
    }
}
