package dev.canal.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A command a test runs beside itself (an example client, a script), its stdout and stderr together in a file the
 * test may read while it runs. Closing it kills the command if it still runs and removes the file.
 */
public final class BackgroundProcess implements AutoCloseable {

    private final Process process;
    private final Path output;
    private final String what;

    private BackgroundProcess(Process process, Path output, String what) {
        this.process = process;
        this.output = output;
        this.what = what;
    }

    /** @param what the command as a failure message names it ("the example consumer") */
    public static BackgroundProcess start(ProcessBuilder builder, String what) throws IOException {
        Path output = Files.createTempFile("background-process", ".out");
        Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new BackgroundProcess(process, output, what);
    }

    /** What it printed so far. */
    public String output() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits for its end within {@code limit} and returns what it printed; fails with that output, and with
     * {@code context} (the server's logs, say), unless it ended with status 0.
     */
    public String awaitSuccess(Duration limit, Supplier<String> context) throws InterruptedException {
        boolean ended = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        String text = output();
        if (!ended) {
            throw new AssertionError(what + " did not end within " + limit + "; it printed:\n" + text + "\n"
                    + context.get());
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(what + " ended with status " + process.exitValue() + "; it printed:\n" + text
                    + "\n" + context.get());
        }
        return text;
    }

    /** As {@link #awaitSuccess(Duration, Supplier)} with no more context than the output. */
    public String awaitSuccess(Duration limit) throws InterruptedException {
        return awaitSuccess(limit, () -> "");
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(output);
    }
}
