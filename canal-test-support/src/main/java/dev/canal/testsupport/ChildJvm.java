package dev.canal.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A main class in a JVM of its own: each line it prints goes to a consumer with the time it arrived here,
 * its standard error goes to a log file. {@link #kill()} is kill -9; {@link #stopGracefully()} closes its
 * standard input, which the mains here take as the signal to stop.
 */
public final class ChildJvm implements AutoCloseable {

    /** A line of standard output and {@link System#nanoTime()} when it was read. */
    public record Line(String text, long nanos) {
    }

    private final Process process;
    private final String name;

    private ChildJvm(Process process, String name, Consumer<Line> output) {
        this.process = process;
        this.name = name;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String text;
                while ((text = in.readLine()) != null) {
                    output.accept(new Line(text, System.nanoTime()));
                }
            } catch (IOException ended) {
                // the process is gone
            }
        }, "child-output-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    public static ChildJvm start(String name, String classPath, List<String> javaOptions, Class<?> main, List<String> args,
            Path logDir, Consumer<Line> output) throws IOException {
        Files.createDirectories(logDir);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(javaOptions);
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectError(logDir.resolve(name + ".log").toFile()).start();
        return new ChildJvm(process, name, output);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: no shutdown hook, no ZooKeeper goodbye; its session ends only by expiry. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    public void stopGracefully() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " did not stop within 30 s of its input closing");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
