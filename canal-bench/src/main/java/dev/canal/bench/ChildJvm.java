package dev.canal.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a stage in a fresh JVM on this JVM's class path, so that each measurement has its own CPU account and
 * peak RSS, a cold JIT like a freshly started server, and nothing left over from the previous stage.
 * Standard error goes to a log file per stage run in {@code logDir}; with {@code profile} each stage JVM also
 * records a JFR profile there ({@code LABEL.jfr}, read with {@code jfr print} or JDK Mission Control).
 */
final class ChildJvm {

    /**
     * Our logging configuration, named so: canal-test-support ships a logback-test.xml, which logback would
     * otherwise prefer (INFO to standard output, where the driver does not read).
     */
    static final String LOGBACK_CONFIG = "logback.configurationFile=bench-logback.xml";

    /**
     * The decode stages hold the whole workload binlog in memory (hundreds of MiB) before the clock starts, and
     * the entries stages every received entry until the clock stops (digested after it), which the server's
     * heap is not sized for: they get a larger one, after the server's options so that it wins. The server
     * stage (the client runs) keeps the server's heap.
     */
    private static final String WHOLE_WORKLOAD_HEAP = "-Xmx3g";

    private final List<String> javaOptions;
    private final Path logDir;
    private final boolean profile;
    private int started;

    ChildJvm(List<String> javaOptions, Path logDir, boolean profile) {
        this.javaOptions = javaOptions.stream().filter(o -> !o.isBlank()).toList();
        this.logDir = logDir;
        this.profile = profile;
    }

    /** A started stage JVM; closing it closes its input (the server stage's stop signal) and waits for it. */
    record Running(Process process, Path log) implements AutoCloseable {

        long pid() {
            return process.pid();
        }

        InputStream stdout() {
            return process.getInputStream();
        }

        @Override
        public void close() throws IOException {
            process.getOutputStream().close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The same stage JVMs, each recording a JFR profile into the logs directory. */
    ChildJvm profiling() {
        return new ChildJvm(javaOptions, logDir, true);
    }

    /** A new directory under the logs directory, numbered in the order of the stage runs, for a run's own files. */
    Path nextLogDir(String label) throws IOException {
        Path dir = logDir.resolve(String.format("%02d-%s", ++started, label));
        Files.createDirectories(dir);
        return dir;
    }

    Running start(String stage, List<String> args, String label) throws IOException {
        List<String> options = new ArrayList<>();
        if (stage.startsWith("decode") || stage.equals("entries")) {
            options.add(WHOLE_WORKLOAD_HEAP);
        }
        List<String> stageArgs = new ArrayList<>();
        stageArgs.add(stage);
        stageArgs.addAll(args);
        return startMain(StageMain.class.getName(), options, List.of(), stageArgs, label);
    }

    /**
     * Starts {@code mainClass} with the stage JVM options, then {@code extraOptions}, on {@code classPathFirst}
     * followed by this JVM's class path.
     */
    Running startMain(String mainClass, List<String> extraOptions, List<Path> classPathFirst, List<String> args,
            String label) throws IOException {
        Files.createDirectories(logDir);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        command.addAll(extraOptions);
        command.add("-D" + LOGBACK_CONFIG);
        String name = String.format("%02d-%s", ++started, label);
        if (profile) {
            command.add("-XX:StartFlightRecording=settings=profile,filename=" + logDir.resolve(name + ".jfr"));
        }
        List<String> classPath = new ArrayList<>();
        classPathFirst.forEach(p -> classPath.add(p.toAbsolutePath().toString()));
        classPath.add(System.getProperty("java.class.path"));
        command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, classPath), mainClass));
        command.addAll(args);
        Path log = logDir.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new Running(process, log);
    }

    /** Runs a stage to its end and returns the results it printed (at least one). */
    List<StageResult> run(String stage, List<String> args, String label) throws IOException, InterruptedException {
        try (Running child = start(stage, args, label)) {
            child.process().getOutputStream().close();
            String output = new String(child.stdout().readAllBytes());
            int exit = child.process().waitFor();
            List<StageResult> results = output.lines().filter(StageResult::isResultLine).map(StageResult::parse)
                    .toList();
            if (results.isEmpty()) {
                throw new IllegalStateException("stage " + label + " exited with " + exit + " and no result; see "
                        + child.log());
            }
            return results;
        }
    }
}
