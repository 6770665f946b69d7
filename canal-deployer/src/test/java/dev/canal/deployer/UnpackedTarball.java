package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** The tarball that mvn package built, unpacked into a folder, with its scripts run as a user would. */
final class UnpackedTarball {

    /** A script's exit status and what it printed. */
    record Run(int status, String output) {
    }

    final Path home;

    private UnpackedTarball(Path home) {
        this.home = home;
    }

    static UnpackedTarball into(Path home) throws Exception {
        Path tarball;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            tarball = files.filter(f -> f.getFileName().toString().matches("canal-deployer-.*\\.tar\\.gz"))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no tarball in target/: run mvn package"));
        }
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString(), "-C", home.toString())
                .inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        return new UnpackedTarball(home);
    }

    void edit(String file, UnaryOperator<String> change) throws IOException {
        Path path = home.resolve(file);
        Files.writeString(path, change.apply(Files.readString(path)));
    }

    /** Runs a script of bin/ to its end (at most two minutes) with this JVM's java and a small heap. */
    Run run(String script, String... args) throws Exception {
        Process process = start(script, args);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(script + " did not finish within 120 s");
        }
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    Process start(String script, String... args) throws IOException {
        String[] command = new String[args.length + 1];
        command[0] = home.resolve("bin").resolve(script).toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA", ProcessHandle.current().info().command().orElse("java"));
        builder.environment().put("JAVA_OPTS", "-Xmx256m -Xms64m");
        return builder.start();
    }

    Path pidFile() {
        return home.resolve("bin/canal.pid");
    }

    String log(String relative) {
        Path file = home.resolve(relative);
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no " + relative + ")";
        } catch (IOException e) {
            return "(unreadable " + relative + ": " + e.getMessage() + ")";
        }
    }
}
