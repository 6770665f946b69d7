package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.GroupEventParser;
import dev.canal.instance.InstanceStartException;
import dev.canal.instance.ProbeEventParser;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.protocol.ClientIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** group-instance.xml with real store, group sink and meta; the two source parsers are probes. */
class GroupInstanceTest {

    @TempDir
    Path conf;

    private CanalInstance generate(String... lines) throws Exception {
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"), String.join("\n", lines) + "\n");
        Properties p = new Properties();
        p.setProperty("canal.instance.global.spring.xml", "classpath:spring/group-instance.xml");
        return new SpringCanalInstanceGenerator(new Source("canal.properties", p), conf)
                .withAdditionalXml("classpath:group-probe-parsers.xml").generate("example");
    }

    @Test
    void eachSourceGetsItsOwnAddressAndBothStartAndStopTogether() throws Exception {
        CanalInstance instance = generate("canal.instance.master1.address=db1.local:3306",
                "canal.instance.master2.address=db2.local:3307");
        GroupEventParser group = (GroupEventParser) instance.getEventParser();
        ProbeEventParser first = (ProbeEventParser) group.members().get(0);
        ProbeEventParser second = (ProbeEventParser) group.members().get(1);

        assertThat(instance.getMetaManager()).isExactlyInstanceOf(MemoryMetaManager.class);
        assertThat(first.label()).isEqualTo("db1.local");
        assertThat(second.label()).isEqualTo("db2.local");
        instance.start();
        assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1, "shop\\..*"))).isTrue();
        instance.stop();

        assertThat(first.observations()).containsExactly("start: meta true, store true, sink true",
                "stop: meta true, store true, sink true");
        assertThat(second.observations()).hasSize(2);
        assertThat(first.whiteFilters()).containsExactly("shop\\..*");
        assertThat(second.whiteFilters()).containsExactly("shop\\..*");
    }

    @Test
    void missingSecondSourceIsNamed() {
        assertThatThrownBy(() -> generate("canal.instance.master1.address=db1.local:3306"))
                .isInstanceOf(InstanceConfigException.class)
                .hasMessageContaining("canal.instance.master2.address");
    }

    @Test
    void secondSourceFailingToStartStopsTheFirst() throws Exception {
        CanalInstance instance = generate("canal.instance.master1.address=db1.local:3306",
                "canal.instance.master2.address=db2.local:3307", "test.parser.fail=true");
        ProbeEventParser first = (ProbeEventParser) ((GroupEventParser) instance.getEventParser()).members().get(0);

        assertThatThrownBy(instance::start).isInstanceOf(InstanceStartException.class);
        assertThat(first.isStart()).isFalse();
        assertThat(first.observations()).hasSize(2);
    }
}
