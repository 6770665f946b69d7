package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.BackgroundProcess;
import dev.canal.testsupport.UnpackedTarball;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/demo.sh} run from the repository as a new user runs it a second time, after the build: it takes the
 * tarball the build made instead of building again, starts its private MariaDB and the server, and prints the
 * changes its writer makes.
 */
@Tag("source-independent")
class DemoIT {

    private static final Path DEMO = Path.of("..", "bin", "demo.sh");
    private static final int CHANGES = 3;

    @Test
    void demoRunsTheBuiltTarballWithoutRebuildingAndPrintsChanges() throws Exception {
        Path tarball = UnpackedTarball.built(Path.of("target"), "canal-deployer-.*\\.tar\\.gz");
        FileTime builtAt = Files.getLastModifiedTime(tarball);

        String printed;
        try (BackgroundProcess demo = BackgroundProcess.start(
                new ProcessBuilder("bash", DEMO.toString(), "--changes", String.valueOf(CHANGES)), "bin/demo.sh")) {
            printed = demo.awaitSuccess(Duration.ofMinutes(3));
        }

        assertThat(printed).contains("demo: using canal-deployer/target/" + tarball.getFileName(),
                "subscribed to demo", "INSERT demo.orders {").doesNotContain("building the server");
        assertThat(printed.lines().filter(line -> line.matches(".* (INSERT|UPDATE|DELETE) demo\\.orders .*")))
                .hasSizeGreaterThanOrEqualTo(CHANGES);
        assertThat(Files.getLastModifiedTime(tarball)).as("the tarball was not built again").isEqualTo(builtAt);
    }
}
