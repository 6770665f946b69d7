package dev.canal.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The daemon's release tarball unpacked into a folder, its files edited and its {@code bin/} scripts run as a
 * user would: with this JVM's java and, unless told otherwise, a small heap.
 */
public final class UnpackedTarball {

    /** A script's exit status and what it printed. */
    public record Run(int status, String output) {
    }

    /** The server's and the destination's logs, as the shipped logback.xml writes them. */
    private static final String[] LOGS = {"logs/canal/canal.log", "logs/example/example.log", "logs/canal/canal_stdout.log"};
    private static final int LOG_TAIL_CHARS = 6000;
    private static final long SCRIPT_LIMIT_SECONDS = 120;

    private final Path home;
    private String javaOpts = "-Xmx256m -Xms64m";

    private UnpackedTarball(Path home) {
        this.home = home;
    }

    /** The tarball {@code mvn package} left in {@code dir} whose name matches {@code namePattern}. */
    public static Path built(Path dir, String namePattern) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches(namePattern)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + namePattern + " in " + dir.toAbsolutePath()
                            + ": run mvn package"));
        }
    }

    public static UnpackedTarball unpack(Path tarball, Path home) throws IOException, InterruptedException {
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString(), "-C", home.toString())
                .inheritIO().start();
        int status = tar.waitFor();
        if (status != 0) {
            throw new IllegalStateException("tar xzf " + tarball + " exited with " + status);
        }
        return new UnpackedTarball(home);
    }

    public Path home() {
        return home;
    }

    /** The server JVM's options (JAVA_OPTS of the scripts) from the next script on. */
    public void javaOpts(String options) {
        javaOpts = options;
    }

    public void edit(String file, UnaryOperator<String> change) throws IOException {
        Path path = home.resolve(file);
        Files.writeString(path, change.apply(Files.readString(path)));
    }

    /** Runs a script of bin/ to its end (at most two minutes). */
    public Run run(String script, String... args) throws IOException, InterruptedException {
        return run(script(script, args));
    }

    /** Runs a script prepared by {@link #script} (its environment changed, say) to its end (at most two minutes). */
    public Run run(ProcessBuilder script) throws IOException, InterruptedException {
        Process process = script.start();
        if (!process.waitFor(SCRIPT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(script.command() + " did not finish within " + SCRIPT_LIMIT_SECONDS + " s");
        }
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Starts a script of bin/ and returns at once. */
    public Process start(String script, String... args) throws IOException {
        return script(script, args).start();
    }

    /** A script of bin/ ready to start, its error output merged into its output. */
    public ProcessBuilder script(String script, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = home.resolve("bin").resolve(script).toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA", ProcessHandle.current().info().command().orElse("java"));
        builder.environment().put("JAVA_OPTS", javaOpts);
        return builder;
    }

    public Path pidFile() {
        return home.resolve("bin/canal.pid");
    }

    /** The running server JVM named by the pid file, if any. */
    public Optional<ProcessHandle> pid() {
        Path file = pidFile();
        try {
            if (!Files.exists(file)) {
                return Optional.empty();
            }
            String text = Files.readString(file).trim();
            return text.isEmpty() ? Optional.empty() : ProcessHandle.of(Long.parseLong(text)).filter(ProcessHandle::isAlive);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    /** A file below the home, or a note that it is missing or unreadable: for assertion messages. */
    public String log(String relative) {
        Path file = home.resolve(relative);
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no " + relative + ")";
        } catch (IOException e) {
            return "(unreadable " + relative + ": " + e.getMessage() + ")";
        }
    }

    /** The end of the server's and the destination's logs, for assertion messages. */
    public String logs() {
        StringBuilder text = new StringBuilder();
        for (String log : LOGS) {
            String content = log(log);
            text.append("== ").append(log).append('\n')
                    .append(content, Math.max(0, content.length() - LOG_TAIL_CHARS), content.length()).append('\n');
        }
        return text.toString();
    }
}
