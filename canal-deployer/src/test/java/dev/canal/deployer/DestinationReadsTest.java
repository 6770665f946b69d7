package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.instance.spring.InstanceSource;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A deploy reads a destination's instance.properties once: building the instance, validating its MQ settings,
 * naming its unknown keys and starting its MQ worker all use what that one read gave. The parsers read no database;
 * the MQ mode's broker is never reached (nothing is sent).
 */
class DestinationReadsTest {

    private static final String TEST_PARSER = "classpath:test-parser.xml";

    @TempDir
    Path conf;

    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
    private CanalController controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
    }

    @ParameterizedTest(name = "in {0} mode")
    @ValueSource(strings = {"tcp", "rabbitMQ"})
    void eachDeployReadsTheDestinationsFileOnce(String mode) throws IOException {
        writeInstance("example");
        controller = new CanalController(CanalServerConfig.load(canalProperties(mode)), new CountingSupply(),
                TEST_PARSER);

        controller.start();
        assertThat(reads("example")).isEqualTo(1);

        controller.destinations().redeploy("example");
        assertThat(reads("example")).isEqualTo(2);

        writeInstance("orders");
        controller.destinations().deploy("orders");
        assertThat(reads("orders")).isEqualTo(1);
        assertThat(controller.runningDestinations()).containsExactly("example", "orders");

        // stopped and started again without a redeploy: the instance is built from what the deploy read
        controller.destinations().release("orders");
        controller.server().start("orders");
        assertThat(reads("orders")).isEqualTo(1);
    }

    private int reads(String destination) {
        return reads.getOrDefault(destination, new AtomicInteger()).get();
    }

    private Source canalProperties(String mode) {
        Properties p = new Properties();
        p.setProperty("canal.serverMode", mode);
        p.setProperty("canal.port", "0");
        p.setProperty("canal.metrics.pull.port", "0");
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", conf.toString());
        p.setProperty("rabbitmq.host", "127.0.0.1:1"); // never connected: nothing is sent
        return new Source(conf.resolve("canal.properties").toString(), p);
    }

    private void writeInstance(String destination) throws IOException {
        Path dir = Files.createDirectories(conf.resolve(destination));
        Files.writeString(dir.resolve("instance.properties"), """
                canal.instance.master.address=127.0.0.1:3306
                canal.mq.topic=%s_topic
                canal.instance.not.a.key=read for the warning too
                """.formatted(destination));
    }

    /** The destinations of the conf dir, each read through a counter. */
    private final class CountingSupply implements InstanceSupply {

        @Override
        public List<String> destinations() {
            return List.of("example");
        }

        @Override
        public InstanceSource source() {
            return destination -> {
                reads.computeIfAbsent(destination, d -> new AtomicInteger()).incrementAndGet();
                Path file = conf.resolve(destination).resolve("instance.properties");
                Properties values = new Properties();
                try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    values.load(reader);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return new Source(file.toString(), values);
            };
        }

        @Override
        public AutoCloseable follow(Destinations destinations) {
            return () -> { };
        }
    }
}
