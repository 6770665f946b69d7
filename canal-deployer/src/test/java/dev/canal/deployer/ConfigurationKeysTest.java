package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.protocol.config.ConfigKey;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each configuration key is declared once (a {@link ConfigKey} beside the config that reads it), and everything
 * else agrees with those declarations: the shipped conf/ files, the keys the code names, docs/configuration.md.
 */
class ConfigurationKeysTest {

    private static final Path ROOT = Path.of("..");
    private static final Path CONF = ROOT.resolve("conf");

    /** Where Canal's shipped file sets a value other than the key's absent-key default. */
    private static final Map<String, String> SHIPPED_NOT_DEFAULT = Map.ofEntries(
            Map.entry("canal.file.data.dir", "${canal.conf.dir}"), // resolves to ../conf, the default
            Map.entry("canal.destinations", "example"),
            Map.entry("canal.auto.scan", "true"),
            Map.entry("canal.instance.detecting.sql", "select 1"),
            Map.entry("canal.instance.detecting.interval.time", "3"),
            Map.entry("canal.instance.binlog.format", "ROW,STATEMENT,MIXED"),
            Map.entry("canal.instance.binlog.image", "FULL,MINIMAL,NOBLOB"),
            Map.entry("canal.instance.master.address", "127.0.0.1:3306"),
            Map.entry("canal.instance.dbUsername", "canal"),
            Map.entry("canal.instance.dbPassword", "canal"),
            Map.entry("canal.instance.filter.black.regex", "mysql\\.slave_.*"),
            Map.entry("canal.mq.topic", "example"), // the topic MQ modes require, as Canal's example names it
            // canal_local.properties: the manager mode it exists for
            Map.entry("canal.admin.manager", "127.0.0.1:8089"),
            Map.entry("canal.admin.port", "11110"),
            Map.entry("canal.admin.register.auto", "true"));

    /** A full key in a string literal of the code, or in a ${...} placeholder of the Spring XML. */
    private static final Pattern KEY_IN_CODE =
            Pattern.compile("[\"{]((?:canal|kafka|rocketmq|rabbitmq|pulsarmq)\\.[A-Za-z0-9_.]*[A-Za-z0-9_])[\":}]");

    private static Map<String, String> shipped() throws IOException {
        Map<String, String> keys = new TreeMap<>();
        for (String file : new String[] {"canal.properties", "canal_local.properties", "example/instance.properties"}) {
            Properties p = new Properties();
            try (Reader reader = Files.newBufferedReader(CONF.resolve(file), StandardCharsets.UTF_8)) {
                p.load(reader);
            }
            p.stringPropertyNames().forEach(k -> keys.put(k, p.getProperty(k).trim()));
        }
        return keys;
    }

    @Test
    void everyShippedKeyIsDeclaredAndSupported() throws IOException {
        assertThat(shipped().keySet()).allSatisfy(key -> assertThat(ConfigCatalog.isSupported(key)).as(key).isTrue());
    }

    @Test
    void everyShippedValueIsTheDeclaredDefaultOrAKnownCanalDifference() throws IOException {
        shipped().forEach((key, value) -> {
            if (!value.isEmpty()) { // blank counts as absent
                String expected = SHIPPED_NOT_DEFAULT.getOrDefault(key,
                        ConfigCatalog.find(key).map(ConfigKey::defaultValue).orElse(null));
                assertThat(value).as(key).isEqualTo(expected);
            }
        });
    }

    @Test
    void everyKeyTheCodeNamesIsDeclared() throws IOException {
        TreeSet<String> named = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT, 12)) {
            for (Path file : files.filter(ConfigurationKeysTest::isMainSourceOrSpringXml).toList()) {
                Matcher m = KEY_IN_CODE.matcher(Files.readString(file));
                while (m.find()) {
                    named.add(m.group(1));
                }
                named.remove("canal.properties"); // the file's name, not a key
            }
        }
        assertThat(named).as("keys found in the code").hasSizeGreaterThan(80);
        assertThat(named.stream().filter(key -> ConfigCatalog.find(key).isEmpty()).toList())
                .as("keys named in the code but declared nowhere").isEmpty();
    }

    /** The server's own sources; the benchmark and the reference Canal have system properties of their own. */
    private static boolean isMainSourceOrSpringXml(Path file) {
        String path = file.toString().replace('\\', '/');
        if (path.contains("/canal-bench/") || path.contains("/canal-reference/")) {
            return false;
        }
        return (path.contains("/src/main/java/") && path.endsWith(".java"))
                || (path.contains("/conf/spring/") && path.endsWith(".xml"));
    }

    @Test
    void noKeyIsDeclaredTwice() {
        Map<String, Long> counts = ConfigCatalog.keys().stream()
                .collect(Collectors.groupingBy(ConfigKey::name, Collectors.counting()));
        assertThat(counts).allSatisfy((name, count) -> assertThat(count).as(name).isEqualTo(1));
    }

    @Test
    void familiesAndPatternsMatchTheKeysTheyStandFor() {
        assertThat(ConfigCatalog.isSupported("kafka.retries")).isTrue();
        assertThat(ConfigCatalog.isSupported("canal.instance.example.lazy")).isTrue();
        assertThat(ConfigCatalog.isSupported("canal.instance.master2.address")).isTrue();
        assertThat(ConfigCatalog.isSupported("canal.instance.standby2.address")).isTrue();
        assertThat(ConfigCatalog.isSupported("canal.instance.rds.accesskey")).isFalse();
        assertThat(ConfigCatalog.isSupported("canal.instance.example.manager.address")).isFalse();
        assertThat(ConfigCatalog.find("canal.instance.not.a.key")).isEmpty();
    }

    @Test
    void docsConfigurationMdIsTheRenderedReference() throws IOException {
        String rendered = ConfigReference.render();
        Path committed = ROOT.resolve("docs/configuration.md");
        if (!Files.exists(committed) || !Files.readString(committed).equals(rendered)) {
            Path fresh = Path.of("target/configuration.md");
            Files.writeString(fresh, rendered);
            assertThat(committed).as("docs/configuration.md is out of date; replace it with "
                    + fresh.toAbsolutePath()).hasContent(rendered);
        }
    }
}
