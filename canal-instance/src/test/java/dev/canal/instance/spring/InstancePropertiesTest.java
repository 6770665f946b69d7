package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.spring.InstanceProperties.Source;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class InstancePropertiesTest {

    private static Source source(String name, String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(name, p);
    }

    private static InstanceProperties resolve(Source canal, Source instance, Map<String, String> system,
            Map<String, String> env) {
        return new InstanceProperties("example", canal, instance, system, env);
    }

    @Test
    void systemPropertyBeatsEnvironmentBeatsInstanceFileBeatsCanalProperties() {
        Source canal = source("canal.properties", "k.all", "canal", "k.files", "canal", "k.env", "canal", "k.canal", "canal");
        Source instance = source("instance.properties", "k.all", "instance", "k.files", "instance", "k.env", "instance");
        InstanceProperties p = resolve(canal, instance, Map.of("k.all", "system"), Map.of("k.all", "env", "k.env", "env"));

        assertThat(p.get("k.all")).isEqualTo("system");
        assertThat(p.originOf("k.all")).isEqualTo("system property k.all");
        assertThat(p.get("k.env")).isEqualTo("env");
        assertThat(p.originOf("k.env")).isEqualTo("environment variable k.env");
        assertThat(p.get("k.files")).isEqualTo("instance");
        assertThat(p.originOf("k.files")).isEqualTo("instance.properties");
        assertThat(p.get("k.canal")).isEqualTo("canal");
        assertThat(p.originOf("k.canal")).isEqualTo("canal.properties");
        assertThat(p.originOf("k.none")).isEqualTo("set in neither instance.properties nor canal.properties");
    }

    @Test
    void blankValuesCountAsMissingAndValuesAreTrimmed() {
        Source canal = source("canal.properties", "k", "  from canal  ", "only.blank", " ");
        Source instance = source("instance.properties", "k", "   ");
        InstanceProperties p = resolve(canal, instance, Map.of("k", ""), Map.of());

        assertThat(p.get("k")).isEqualTo("from canal");
        assertThat(p.get("only.blank")).isNull();
        assertThat(p.effective()).doesNotContainKey("only.blank").containsEntry("k", "from canal");
    }

    @Test
    void nestedPlaceholdersResolveWithDefaultsAndTheDestination() {
        Source canal = source("canal.properties",
                "canal.conf.dir", "/srv/canal/conf",
                "canal.file.data.dir", "${canal.conf.dir}",
                "canal.instance.tsdb.dir", "${canal.file.data.dir:../conf}/${canal.instance.destination:}",
                "with.default", "${not.set:fallback}",
                "unresolvable", "${not.set}");
        InstanceProperties p = resolve(canal, source("instance.properties"), Map.of(), Map.of());

        assertThat(p.get("canal.file.data.dir")).isEqualTo("/srv/canal/conf");
        assertThat(p.get("canal.instance.tsdb.dir")).isEqualTo("/srv/canal/conf/example");
        assertThat(p.get("with.default")).isEqualTo("fallback");
        assertThat(p.get("unresolvable")).isEqualTo("${not.set}");
        assertThat(p.effective()).containsEntry("canal.instance.destination", "example");
    }

    @Test
    void effectivePropertiesIncludeCanalKeysGivenOnlyAsSystemProperties() {
        InstanceProperties p = resolve(source("canal.properties"), source("instance.properties"),
                Map.of("canal.instance.memory.buffer.size", "64", "java.version", "17"), Map.of());

        assertThat(p.effective()).containsEntry("canal.instance.memory.buffer.size", "64")
                .doesNotContainKey("java.version");
    }
}
