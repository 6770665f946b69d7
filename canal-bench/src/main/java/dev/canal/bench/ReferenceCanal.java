package dev.canal.bench;

import dev.canal.protocol.config.Secrets;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The real Alibaba Canal 1.1.7 server (module canal-reference) in a child JVM of its own class path
 * ({@code canal-reference/target/canal-reference.jar} and {@code target/lib/*}, built by Maven's package phase):
 * starts its launcher with one destination, waits until it listens, and stops it on {@link #close()}.
 * The JVM gets the options the deployer's {@code bin/startup.sh} gives on Java 11 and later (see
 * {@link #DEPLOYER_JAVA_OPTIONS}), in UTC like every JVM of the benchmark.
 */
public final class ReferenceCanal implements AutoCloseable {

    /** Where canal-reference's build output is, when not the default {@code canal-reference/target}. */
    public static final String HOME_PROPERTY = "canal.reference.home";

    /**
     * {@code bin/startup.sh} of the Canal deployer on a 64-bit Java 11 or later: G1, 2 GiB initial and 3 GiB
     * maximum heap. (On Java 8 it uses -Xmn1g -XX:SurvivorRatio=2 and CMS-era flags, which Java 17 no longer
     * has.) {@code -XX:-UseBiasedLocking} is left out: Java 17 only warns that it is obsolete.
     */
    public static final List<String> DEPLOYER_JAVA_OPTIONS = List.of("-server", "-Xms2g", "-Xmx3g",
            "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=250", "-XX:+UseGCOverheadLimit", "-XX:+ExplicitGCInvokesConcurrent",
            "-Xss1m", "-XX:-OmitStackTraceInFastThrow", "-Djava.awt.headless=true",
            "-Djava.net.preferIPv4Stack=true", "-Dfile.encoding=UTF-8", "-DappName=otter-canal");

    private static final String MAIN = "dev.canal.reference.ReferenceCanalMain";
    private static final String READY = "READY ";
    private static final long START_TIMEOUT_SECONDS = 120;

    /**
     * One destination of the reference: its source, start position (file, offset and time), filters, and further
     * instance keys of the launcher ({@code settings}, named without the destination: {@code filter.rows},
     * {@code gtidon}, {@code master.gtid}, {@code meta.dir}, ...; docs/reference-canal.md).
     */
    public record Destination(String name, String host, int port, String user, String password, String file,
            long position, long timestampMillis, Filters filters, int memoryBufferSize, long slaveId,
            Map<String, String> settings) {

        public Destination {
            settings = Map.copyOf(settings);
        }

        /** A destination with no settings beyond its filters. */
        public Destination(String name, String host, int port, String user, String password, String file,
                long position, long timestampMillis, Filters filters, int memoryBufferSize, long slaveId) {
            this(name, host, port, user, password, file, position, timestampMillis, filters, memoryBufferSize,
                    slaveId, Map.of());
        }

        /** A destination filtered by the table white list {@code filterRegex} alone. */
        public Destination(String name, String host, int port, String user, String password, String file,
                long position, long timestampMillis, String filterRegex, int memoryBufferSize, long slaveId) {
            this(name, host, port, user, password, file, position, timestampMillis, Filters.tables(filterRegex),
                    memoryBufferSize, slaveId);
        }

        void putInto(Properties p) {
            p.setProperty(name + ".master.address", host + ":" + port);
            p.setProperty(name + ".dbUsername", user);
            p.setProperty(name + ".dbPassword", password);
            p.setProperty(name + ".master.journal.name", file);
            p.setProperty(name + ".master.position", Long.toString(position));
            p.setProperty(name + ".master.timestamp", Long.toString(timestampMillis));
            filters.putInto(name, p);
            p.setProperty(name + ".memory.buffer.size", Integer.toString(memoryBufferSize));
            p.setProperty(name + ".tsdb.enable", "true");
            p.setProperty(name + ".slaveId", Long.toString(slaveId));
            settings.forEach((key, value) -> p.setProperty(name + "." + key, value));
        }

        @Override
        public String toString() {
            return Secrets.toString(this, Set.of("password")); // never the secret itself
        }
    }

    /**
     * The instance's filters, as {@code canal.instance.filter.regex}, {@code filter.black.regex},
     * {@code filter.field} and {@code filter.black.field} give them; null for the ones not set.
     */
    public record Filters(String regex, String blackRegex, String field, String blackField) {

        public Filters {
            if (regex == null || regex.isBlank()) {
                throw new IllegalArgumentException("the table filter regex must be given");
            }
        }

        public static Filters tables(String regex) {
            return new Filters(regex, null, null, null);
        }

        void putInto(String destination, Properties p) {
            p.setProperty(destination + ".filter.regex", regex);
            putIfSet(p, destination + ".filter.black.regex", blackRegex);
            putIfSet(p, destination + ".filter.field", field);
            putIfSet(p, destination + ".filter.black.field", blackField);
        }

        private static void putIfSet(Properties p, String key, String value) {
            if (value != null) {
                p.setProperty(key, value);
            }
        }
    }

    private final Process process;
    private final int port;
    private final Path log;
    private final List<String> stdout = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ReferenceCanal(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts the reference with {@code destination}; its configuration file and standard error go to
     * {@code workDir}. Returns once its TCP port accepts connections (the destination is started by then).
     */
    public static ReferenceCanal start(Destination destination, List<String> extraJavaOptions, Path workDir)
            throws IOException, InterruptedException {
        return start(List.of(destination), extraJavaOptions, workDir);
    }

    /** Starts the reference with several destinations, each with an instance of its own, as {@link #start} one. */
    public static ReferenceCanal start(List<Destination> destinations, List<String> extraJavaOptions, Path workDir)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        int port = freePort();
        String names = String.join(",", destinations.stream().map(Destination::name).toList());
        Properties properties = new Properties();
        properties.setProperty("canal.port", Integer.toString(port));
        properties.setProperty("canal.destinations", names);
        destinations.forEach(d -> d.putInto(properties));
        String fileName = "reference-" + (destinations.size() == 1 ? names : "destinations");
        Path config = workDir.resolve(fileName + ".properties");
        try (Writer out = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
            properties.store(out, "the reference Canal 1.1.7 launcher (canal-reference)");
        }
        Path log = workDir.resolve(fileName + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(DEPLOYER_JAVA_OPTIONS);
        command.add("-Duser.timezone=UTC");
        command.addAll(extraJavaOptions);
        command.addAll(List.of("-cp", classPath(), MAIN, config.toString()));
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        ReferenceCanal canal = new ReferenceCanal(process, port, log);
        try {
            canal.awaitReady();
        } catch (IOException | RuntimeException | InterruptedException e) {
            canal.close();
            throw e;
        }
        return canal;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** The child's standard error: Canal's log. */
    public Path log() {
        return log;
    }

    /** Closes the child's input (its stop signal) and waits for it; kills it if it does not end in 30 s. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the READY line, keeps draining standard output after it, then checks that the port answers. */
    private void awaitReady() throws IOException, InterruptedException {
        BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(READY)) {
                        ready.complete(true);
                    } else if (!ready.isDone()) {
                        stdout.add(line); // e.g. the JVM's own start-up errors, which go to standard output
                    }
                }
            } catch (IOException ended) {
                // the child is gone
            }
            ready.complete(false);
        }, "reference-canal-stdout");
        reader.setDaemon(true);
        reader.start();
        boolean listening;
        try {
            listening = ready.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the reference Canal did not start within " + START_TIMEOUT_SECONDS
                    + " s; " + logTail());
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the reference Canal's output failed", e.getCause());
        }
        if (!listening) {
            throw new IllegalStateException("the reference Canal ended before listening; " + logTail());
        }
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        }
    }

    /** The end of the child's log, for an error message (its directory may be gone when it is read). */
    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "its standard output:\n" + String.join("\n", stdout) + "\nthe end of " + log + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "see " + log;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** canal-reference.jar and every jar of its lib/ directory, from {@value #HOME_PROPERTY} or the default. */
    static String classPath() {
        Path home = home();
        Path jar = home.resolve("canal-reference.jar");
        Path lib = home.resolve("lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IllegalStateException("no reference Canal build in " + home.toAbsolutePath()
                    + " (canal-reference.jar and lib/); build it with mvn -pl canal-reference package, or set -D"
                    + HOME_PROPERTY);
        }
        return jar + java.io.File.pathSeparator + lib.resolve("*");
    }

    private static Path home() {
        String configured = System.getProperty(HOME_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (Path candidate : List.of(Path.of("canal-reference", "target"),
                Path.of("..", "canal-reference", "target"))) {
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return Path.of("canal-reference", "target");
    }
}
