package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.UnpackedTarball;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The packaged daemon (canal-deployer's tarball) unpacked into a folder, configured for one destination with
 * file meta, started with bin/startup.sh and killed with SIGKILL or stopped with bin/stop.sh, as a user would.
 */
final class CanalDaemon {

    static final String DESTINATION = "example";
    static final Duration START_WAIT = Duration.ofSeconds(90);

    private static final Pattern CURSOR_FILE = Pattern.compile("\"journalName\":\"([^\"]+)\"");
    private static final Pattern CURSOR_OFFSET = Pattern.compile("\"position\":(\\d+)");

    private static Path copiedTarball; // guarded by the class lock

    final Path home;
    final int port;
    private final UnpackedTarball tarball;

    private CanalDaemon(UnpackedTarball tarball, int port) {
        this.tarball = tarball;
        this.home = tarball.home();
        this.port = port;
    }

    /**
     * Unpacks the tarball into {@code home} and points it at {@code sourceHost:sourcePort} (the database, or a
     * proxy in front of it), reading only {@code schema}, starting at {@code start}.
     */
    static CanalDaemon unpack(Path home, MySqlServer db, String sourceHost, int sourcePort, String schema,
            MySqlServer.BinlogCoordinates start) throws Exception {
        CanalDaemon daemon = new CanalDaemon(UnpackedTarball.unpack(tarballCopy(), home), TcpPorts.free());
        daemon.set("conf/canal.properties", "canal.metrics.pull.port", String.valueOf(TcpPorts.free()));
        daemon.edit("conf/canal.properties", text -> text
                .replace("canal.port = 11111", "canal.port = " + daemon.port)
                .replace("canal.file.flush.period = 1000", "canal.file.flush.period = 200")
                .replace("canal.auto.scan = true", "canal.auto.scan = false"));
        daemon.edit("conf/example/instance.properties", text -> text
                .replace("canal.instance.master.address = 127.0.0.1:3306",
                        "canal.instance.master.address = " + sourceHost + ":" + sourcePort)
                .replace("canal.instance.master.journal.name =", "canal.instance.master.journal.name = " + start.file())
                .replace("canal.instance.master.position =", "canal.instance.master.position = " + start.position())
                .replace("canal.instance.dbUsername = canal", "canal.instance.dbUsername = " + db.replicationUser())
                .replace("canal.instance.dbPassword = canal", "canal.instance.dbPassword = " + db.replicationPassword())
                .replace("canal.instance.filter.regex = .*\\\\..*", "canal.instance.filter.regex = " + schema + "\\\\..*"));
        return daemon;
    }

    /**
     * A private copy of canal-deployer's tarball, taken once per test JVM (so each run tests the latest build),
     * so that a concurrent rebuild of that module cannot hand a half-written file to a later test.
     */
    private static synchronized Path tarballCopy() throws IOException {
        if (copiedTarball == null) {
            String given = System.getProperty("reliability.tarball");
            Path tarball = given != null ? Path.of(given)
                    : UnpackedTarball.built(Path.of("../canal-deployer/target"), "canal-deployer-.*\\.tar\\.gz");
            if (!Files.exists(tarball)) {
                throw new IllegalStateException("no daemon tarball at " + tarball.toAbsolutePath()
                        + ": build it first with mvn -B -q -pl canal-deployer package -DskipTests");
            }
            Path copy = Path.of("target", "daemon-under-test.tar.gz").toAbsolutePath();
            Files.copy(tarball, copy, StandardCopyOption.REPLACE_EXISTING);
            copiedTarball = copy;
        }
        return copiedTarball;
    }

    /** The server JVM's options (JAVA_OPTS of bin/startup.sh) from the next start on; a small heap by default. */
    void javaOpts(String options) {
        tarball.javaOpts(options);
    }

    void edit(String file, UnaryOperator<String> change) throws IOException {
        tarball.edit(file, change);
    }

    /** Sets {@code key = value} in a conf file whose shipped text has that key (commented out or not). */
    void set(String file, String key, String value) throws IOException {
        Pattern line = Pattern.compile("(?m)^#?" + Pattern.quote(key) + " =.*$");
        edit(file, text -> {
            Matcher matcher = line.matcher(text);
            if (!matcher.find()) {
                throw new IllegalStateException("no key " + key + " in the shipped " + file);
            }
            return matcher.replaceFirst(Matcher.quoteReplacement(key + " = " + value));
        });
    }

    /**
     * Adds a destination {@code name} beside example, with example's instance.properties reading only the tables
     * that {@code filterRegex} matches; {@code canal.destinations} is the caller's to set.
     */
    void addDestination(String name, String filterRegex) throws IOException {
        String example = Files.readString(home.resolve("conf").resolve(DESTINATION).resolve("instance.properties"));
        String own = example.replaceFirst("(?m)^canal\\.instance\\.filter\\.regex = .*$",
                Matcher.quoteReplacement("canal.instance.filter.regex = " + filterRegex));
        Path dir = Files.createDirectories(home.resolve("conf").resolve(name));
        Files.writeString(dir.resolve("instance.properties"), own);
    }

    /** bin/startup.sh, then waits until the client port answers. */
    void start() throws Exception {
        startWithoutClientPort();
        await().atMost(START_WAIT).pollInterval(Duration.ofMillis(200))
                .failFast("the daemon exited; logs:\n" + logs(), () -> pid().isEmpty())
                .until(() -> TcpPorts.isListening(port));
    }

    /** bin/startup.sh, which returns once the server says it started: for MQ mode, where no client port is served. */
    void startWithoutClientPort() throws Exception {
        UnpackedTarball.Run run = tarball.run("startup.sh");
        assertThat(run.status()).as("startup.sh: %s", run.output()).isZero();
    }

    /**
     * bin/startup.sh --foreground, for a start that must fail: waits up to {@code limit} for the server to exit and
     * returns its status and output; a server still running then is stopped and reported with status -1.
     */
    UnpackedTarball.Run startInForeground(Duration limit) throws Exception {
        Path output = home.resolve("foreground.out");
        ProcessBuilder builder = tarball.script("startup.sh", "--foreground").redirectOutput(output.toFile());
        Process process = builder.start();
        boolean exited = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!exited) {
            process.destroy(); // the script passes TERM on to the server
            process.waitFor(30, TimeUnit.SECONDS);
        }
        return new UnpackedTarball.Run(exited ? process.exitValue() : -1, Files.readString(output, StandardCharsets.UTF_8));
    }

    /** Waits for a condition; if it does not come, fails with the daemon's logs, which usually say why. */
    void awaitOrShowLogs(String what, Duration limit, Callable<Boolean> condition) {
        try {
            await().atMost(limit).pollInterval(Duration.ofMillis(50)).until(condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("not within " + limit + ": " + what + "; logs:\n" + logs(), e);
        }
    }

    /** SIGKILL to the server JVM: no shutdown hook runs, meta.dat keeps what the last periodic flush wrote. */
    void kill9() {
        ProcessHandle server = pid().orElseThrow(() -> new IllegalStateException("no running daemon in " + home));
        server.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !server.isAlive());
    }

    void stop() throws Exception {
        if (pid().isPresent()) {
            tarball.run("stop.sh");
        }
    }

    /** The running server JVM named by bin/canal.pid, if any. */
    Optional<ProcessHandle> pid() {
        return tarball.pid();
    }

    Path metaFile() {
        return home.resolve("conf").resolve(DESTINATION).resolve("meta.dat");
    }

    /** The cursor meta.dat holds now (journal file and offset), empty if no client acked anything yet. */
    Optional<BinlogPoint> persistedCursor() throws IOException {
        if (!Files.exists(metaFile())) {
            return Optional.empty();
        }
        String json = Files.readString(metaFile());
        Matcher file = CURSOR_FILE.matcher(json);
        Matcher offset = CURSOR_OFFSET.matcher(json);
        if (!file.find() || !offset.find()) {
            return Optional.empty();
        }
        return Optional.of(new BinlogPoint(file.group(1), Long.parseLong(offset.group(1))));
    }

    String log(String relative) {
        return tarball.log(relative);
    }

    /** The server's and the destination's logs, for assertion messages. */
    String logs() {
        return tarball.logs();
    }
}
