package dev.canal.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * The class path of the official Canal client 1.1.x with its own dependencies (zkclient, ZooKeeper 3.5, an old
 * protobuf), which cannot share a JVM with ours: resolved once per module by Maven from a pom without our managed
 * versions ({@code official-client-pom.xml}) into {@code target/official-client.classpath}, for a {@link ChildJvm}
 * that runs a client main of the calling module.
 */
public final class OfficialClientClassPath {

    private static final String POM = "official-client-pom.xml";

    private OfficialClientClassPath() {
    }

    /**
     * The official client's class path followed by the class folder (or jar) holding {@code main}, which must use
     * nothing but the official client and the JDK.
     */
    public static synchronized String with(Class<?> main) throws IOException, InterruptedException {
        Path target = Path.of("target").toAbsolutePath();
        Path output = target.resolve("official-client.classpath");
        if (!Files.exists(output)) {
            Files.createDirectories(target);
            Path pom = target.resolve(POM);
            try (InputStream in = OfficialClientClassPath.class.getResourceAsStream("/" + POM)) {
                if (in == null) {
                    throw new IllegalStateException(POM + " is not on the class path");
                }
                Files.copy(in, pom, StandardCopyOption.REPLACE_EXISTING);
            }
            String maven = System.getProperty("maven.home") == null ? "mvn"
                    : Path.of(System.getProperty("maven.home"), "bin", "mvn").toString();
            Path log = target.resolve("official-client-classpath.log");
            Process mvn = new ProcessBuilder(maven, "-B", "-q", "-f", pom.toString(), "dependency:build-classpath",
                    "-Dmdep.outputFile=" + output).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!mvn.waitFor(5, TimeUnit.MINUTES) || mvn.exitValue() != 0 || !Files.exists(output)) {
                throw new IllegalStateException("cannot resolve the official client's class path from " + pom
                        + "; see " + log);
            }
        }
        return Files.readString(output).trim() + File.pathSeparator + locationOf(main);
    }

    private static Path locationOf(Class<?> main) {
        try {
            return Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no location for " + main, e);
        }
    }
}
