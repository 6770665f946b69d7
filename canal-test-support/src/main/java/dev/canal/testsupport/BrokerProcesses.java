package dev.canal.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The child processes of a broker under test, run in a folder of their own: each one's output goes to a log file
 * there, each is destroyed with this JVM at the latest, and the folder is deleted when the broker is closed.
 */
final class BrokerProcesses {

    private final Path dir;

    BrokerProcesses(Path dir) {
        this.dir = dir;
    }

    /** A fresh temporary folder named after the broker. */
    static BrokerProcesses inTemporaryFolder(String prefix) throws IOException {
        return new BrokerProcesses(Files.createTempDirectory(prefix));
    }

    Path dir() {
        return dir;
    }

    /** Where the output of the process started as {@code name} goes. */
    Path log(String name) {
        return dir.resolve(name + ".log");
    }

    /** A small JVM of {@code java} on {@code classPath}: the options every broker child takes, then the rest. */
    static List<String> smallJvm(String java, String classPath, List<String> rest) {
        List<String> command = new ArrayList<>(List.of(java, "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classPath));
        command.addAll(rest);
        return command;
    }

    /** The java of this JVM. */
    static String thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts a process in the folder, its output appended to {@link #log}, never outliving this JVM. */
    Process start(String name, List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile())).start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly)); // no orphan broker
        return process;
    }

    /** Kills a process at once (no orderly shutdown) and waits for it. */
    static void kill(Process process) throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Asks a process to stop, and kills it when it has not within 20 s. */
    static void stop(Process process) throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Deletes the folder and everything the processes wrote there. */
    void delete() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
