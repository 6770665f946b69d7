package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.deployer.admin.AdminStandIn;
import dev.canal.server.netty.AuthScramble;
import dev.canal.testsupport.TcpPorts;
import dev.canal.testsupport.UnpackedTarball;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/startup.sh, stop.sh and restart.sh of the unpacked tarball, with a server that serves no destination. */
@Tag("source-independent")
class ScriptsIT {

    @TempDir
    java.nio.file.Path home;

    private UnpackedTarball canal;
    private int port;

    @BeforeEach
    void unpack() throws Exception {
        canal = UnpackedTarball.unpack(UnpackedTarball.built(Path.of("target"), "canal-deployer-.*\\.tar\\.gz"), home);
        port = TcpPorts.free();
        canal.edit("conf/canal.properties", text -> text
                .replace("canal.port = 11111", "canal.port = " + port)
                .replace("canal.metrics.pull.port = 11112", "canal.metrics.pull.port = 0")
                .replace("canal.destinations = example", "canal.destinations =")
                .replace("canal.auto.scan = true", "canal.auto.scan = false"));
    }

    @AfterEach
    void stop() throws Exception {
        if (Files.exists(canal.pidFile())) {
            canal.run("stop.sh");
        }
    }

    @Test
    void tarballIsLaidOutAsCanals() {
        assertThat(home.resolve("bin/startup.sh")).isExecutable();
        assertThat(home.resolve("bin/stop.sh")).isExecutable();
        assertThat(home.resolve("bin/restart.sh")).isExecutable();
        assertThat(home.resolve("bin/canal-env.sh")).isRegularFile();
        assertThat(home.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
        assertThat(home.resolve("CHANGELOG.md")).isRegularFile();
        assertThat(home.resolve("conf/systemd/canal.service")).content().contains("startup.sh --foreground");
        assertThat(home.resolve("conf/metrics/Canal_instances_tmpl.json")).isRegularFile();
        assertThat(home.resolve("conf/canal.properties")).isRegularFile();
        assertThat(home.resolve("conf/canal_local.properties")).isRegularFile();
        assertThat(home.resolve("conf/logback.xml")).isRegularFile();
        assertThat(home.resolve("conf/example/instance.properties")).isRegularFile();
        assertThat(home.resolve("conf/spring/file-instance.xml")).isRegularFile();
        assertThat(home.resolve("logs")).isEmptyDirectory();
        assertThat(home.resolve("lib")).isDirectoryContaining("glob:**/canal-deployer-*.jar");
    }

    @Test
    void daemonStartsOnceAndStopRemovesThePidFile() throws Exception {
        UnpackedTarball.Run first = canal.run("startup.sh");
        assertThat(first.status()).isZero();
        assertThat(first.output()).as("the JIT's options of bin/canal-env.sh")
                .contains(" -XX:FreqInlineSize=100 ", " -XX:Tier4InvocationThreshold=15000 ");
        await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port));
        long pid = Long.parseLong(Files.readString(canal.pidFile()).trim());

        UnpackedTarball.Run second = canal.run("startup.sh");
        assertThat(second.status()).isEqualTo(2);
        assertThat(second.output()).contains("canal server is already running", "run bin/stop.sh first");

        UnpackedTarball.Run stop = canal.run("stop.sh");
        assertThat(stop.status()).isZero();
        assertThat(stop.output()).contains("stopped after", "every cursor is flushed");
        assertThat(canal.pidFile()).doesNotExist();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(canal.log("logs/canal/canal.log")).contains("canal server started", "canal server stopped");
        assertThat(canal.run("stop.sh").output()).contains("canal server is not running: no ");
    }

    @Test
    void whatTheServerWritesIsReadableByItsUserOnlyAndAnOpenClientPortIsAnnounced() throws Exception {
        assertThat(canal.run("startup.sh").status()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port));

        for (Path written : List.of(canal.pidFile(), home.resolve("logs/canal/canal.log"))) {
            assertThat(Files.getPosixFilePermissions(written)).as("permissions of %s", written)
                    .doesNotContain(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ,
                            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
        }
        assertThat(canal.log("logs/canal/canal.log")).contains("is open to anyone who can reach it");
    }

    @Test
    void restartStopsTheRunningServerAndStartsAnotherOnTheClassArchiveTheFirstOneWrote() throws Exception {
        assertThat(canal.run("startup.sh").status()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port));
        String firstPid = Files.readString(canal.pidFile()).trim();
        assertThat(home.resolve("logs/canal.jsa")).as("written when the first server stops").doesNotExist();

        assertThat(canal.run("restart.sh").status()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port));

        String secondPid = Files.readString(canal.pidFile()).trim();
        assertThat(secondPid).isNotEqualTo(firstPid);
        assertThat(Files.readString(Path.of("/proc", secondPid, "maps"))).as("the second server maps the archive")
                .contains(home.resolve("logs/canal.jsa").toString());
    }

    @Test
    void foregroundRunEndsWithTheServerOnSigterm() throws Exception {
        Process foreground = canal.start("startup.sh", "--foreground");
        await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port));
        assertThat(canal.pidFile()).exists();

        foreground.destroy(); // SIGTERM to the script, which passes it on to the server
        assertThat(foreground.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // 128 + SIGTERM: the status the systemd unit counts as a clean stop (SuccessExitStatus=143)
        assertThat(foreground.exitValue()).isEqualTo(143);

        assertThat(TcpPorts.isListening(port)).isFalse();
        assertThat(canal.pidFile()).doesNotExist();
        assertThat(canal.log("logs/canal/canal.log")).contains("canal server stopped");
    }

    @Test
    void localStartsUnderCanalAdminWithCanalLocalProperties() throws Exception {
        int adminPort = TcpPorts.free();
        String password = AuthScramble.passwordHash("admin");
        try (AdminStandIn admin = new AdminStandIn("admin", password, String.join("\n",
                "canal.port = " + port, "canal.metrics.pull.port = 0", "canal.auto.scan = true"))) {
            canal.edit("conf/canal_local.properties", text -> text
                    .replace("canal.admin.manager = 127.0.0.1:8089", "canal.admin.manager = " + admin.address())
                    .replace("canal.admin.port = 11110", "canal.admin.port = " + adminPort)
                    .replace("canal.admin.passwd =", "canal.admin.passwd = " + password)
                    .replace("canal.register.ip =", "canal.register.ip = 127.0.0.1"));

            assertThat(canal.run("startup.sh", "local").status()).isZero();
            // the admin port opens once the server runs
            await().atMost(Duration.ofSeconds(60)).until(() -> TcpPorts.isListening(port)
                    && TcpPorts.isListening(adminPort));

            assertThat(admin.serverPolls()).first().satisfies(poll -> assertThat(poll)
                    .containsEntry("ip", "127.0.0.1").containsEntry("port", String.valueOf(adminPort))
                    .containsEntry("register", "1"));
        }
    }

    @Test
    void javaOlderThan17IsRefusedNamingItsVersion() throws Exception {
        Path oldJava = home.resolve("old-jdk");
        Files.createDirectories(oldJava.resolve("bin"));
        Path java = oldJava.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n");
        java.toFile().setExecutable(true);
        ProcessBuilder startup = canal.script("startup.sh");
        startup.environment().remove("JAVA");
        startup.environment().put("JAVA_HOME", oldJava.toString());

        UnpackedTarball.Run run = canal.run(startup);

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.output()).contains("needs Java 17 or newer", java.toString(), "11.0.22");
        assertThat(canal.pidFile()).doesNotExist();
    }

    @Test
    void pidFileNamingAnotherProcessIsNeitherHonouredNorKilled() throws Exception {
        Process other = new ProcessBuilder("sleep", "300").start();
        try {
            Files.writeString(canal.pidFile(), other.pid() + "\n");
            UnpackedTarball.Run start = canal.run("startup.sh");
            assertThat(start.status()).as(start.output()).isZero();
            assertThat(start.output()).contains("removing stale");
            assertThat(canal.pid()).hasValueSatisfying(server -> assertThat(server.pid()).isNotEqualTo(other.pid()));
            assertThat(canal.run("stop.sh").status()).isZero();

            Files.writeString(canal.pidFile(), other.pid() + "\n");
            UnpackedTarball.Run stop = canal.run("stop.sh");
            assertThat(stop.status()).isZero();
            assertThat(stop.output()).contains("not a canal server");
            assertThat(other.isAlive()).isTrue();
            assertThat(canal.pidFile()).doesNotExist();
        } finally {
            other.destroy();
        }
    }

    @Test
    void stopExitsNonZeroWhenItHadToKillTheServer() throws Exception {
        assertThat(canal.run("startup.sh").status()).isZero();
        long pid = canal.pid().orElseThrow().pid();
        // a stopped process ignores SIGTERM until it is continued: as a server hung in its shutdown
        assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor()).isZero();
        ProcessBuilder stop = canal.script("stop.sh");
        stop.environment().put("CANAL_STOP_TIMEOUT", "1");

        UnpackedTarball.Run run = canal.run(stop);

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.output()).contains("did not stop within 1 s, killing it", "was killed");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(canal.pidFile()).doesNotExist();
    }

    @Test
    void secretsGivenInJavaOptsAreNotEchoed() throws Exception {
        assertThat(startedWithJavaOpts("-Dcanal.instance.dbPassword=hunter2"))
                .contains("-Dcanal.instance.dbPassword=******").doesNotContain("hunter2");
    }

    @Test
    void aJitOptionGivenInJavaOptsReplacesOnlyTheShippedOneOfItsName() throws Exception {
        assertThat(startedWithJavaOpts("-XX:Tier4InvocationThreshold=30000"))
                .contains("-XX:Tier4InvocationThreshold=30000", " -XX:FreqInlineSize=100 ")
                .doesNotContain("-XX:Tier4InvocationThreshold=15000");
    }

    /** Starts the server with {@code options} added to a small heap in JAVA_OPTS; what startup.sh printed. */
    private String startedWithJavaOpts(String options) throws Exception {
        canal.javaOpts("-Xmx256m -Xms64m " + options);
        UnpackedTarball.Run run = canal.run("startup.sh");
        assertThat(run.status()).isZero();
        return run.output();
    }

    @Test
    void invalidConfigurationExitsNamingFileAndKey() throws Exception {
        canal.edit("conf/canal.properties", text -> text.replace("canal.port = " + port, "canal.port = eleven"));

        UnpackedTarball.Run run = canal.run("startup.sh", "--foreground");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.output()).contains("canal.port", home.resolve("conf/canal.properties").toString());
        assertThat(canal.pidFile()).doesNotExist();
    }
}
