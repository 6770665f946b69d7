package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.GroupEventParser;
import dev.canal.instance.InstanceStartException;
import dev.canal.instance.ProbeEventParser;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.meta.FileMixedMetaManager;
import dev.canal.meta.MemoryMetaManager;
import dev.canal.meta.MetaManager;
import dev.canal.parse.mysql.MysqlEventParser;
import dev.canal.protocol.ClientIdentity;
import dev.canal.sink.EntryEventSink;
import dev.canal.protocol.position.EntryPosition;
import dev.canal.protocol.position.LogIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.store.MemoryEventStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Instances built from the shipped XMLs with real stores and meta managers; only the parser is a probe. */
class SpringCanalInstanceGeneratorTest {

    static final LogPosition ACKED = new LogPosition(LogIdentity.of("127.0.0.1", 3306),
            EntryPosition.of("mysql-bin.000001", 1234, 1, 1_700_000_000_000L));

    @TempDir
    Path conf;

    private Source canalProperties(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        p.setProperty("canal.file.flush.period", "1000");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(conf.resolve("canal.properties").toString(), p);
    }

    private Path instanceFile(String destination, String... lines) throws IOException {
        Path dir = Files.createDirectories(conf.resolve(destination));
        StringBuilder text = new StringBuilder("canal.instance.master.address=127.0.0.1:3306\n");
        for (String line : lines) {
            text.append(line).append('\n');
        }
        return Files.writeString(dir.resolve("instance.properties"), text);
    }

    private SpringCanalInstanceGenerator generator(Source canal) {
        return new SpringCanalInstanceGenerator(canal, conf).withAdditionalXml("classpath:probe-parser.xml");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory-instance.xml", "file-instance.xml"})
    void shippedXmlWiresTheMysqlParserWithTheSinkAndStore(String xml) throws IOException {
        instanceFile("example");
        CanalInstance instance = new SpringCanalInstanceGenerator(
                canalProperties("canal.instance.global.spring.xml", "classpath:spring/" + xml), conf).generate("example");

        assertThat(instance.getEventParser()).isInstanceOf(MysqlEventParser.class);
        assertThat(instance.getEventStore()).isInstanceOf(MemoryEventStore.class);
        assertThat(((EntryEventSink) instance.getEventSink()).store()).isSameAs(instance.getEventStore());
        instance.stop(); // never started: closes its context
    }

    @Test
    void groupXmlWiresOneMysqlParserPerSourceIntoTheGroupSink() throws IOException {
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"),
                "canal.instance.master1.address=db1.local:3306\ncanal.instance.master2.address=db2.local:3306\n");
        CanalInstance instance = new SpringCanalInstanceGenerator(
                canalProperties("canal.instance.global.spring.xml", "classpath:spring/group-instance.xml"), conf)
                .generate("example");

        assertThat(((GroupEventParser) instance.getEventParser()).members())
                .hasSize(2).allSatisfy(member -> assertThat(member).isInstanceOf(MysqlEventParser.class));
        instance.stop();
    }

    @Test
    void fileInstanceIsTheDefaultAndWritesMetaDatWhenStopped() throws IOException {
        instanceFile("example");
        CanalInstance instance = generator(canalProperties()).generate("example");

        assertThat(instance.getMetaManager()).isInstanceOf(FileMixedMetaManager.class);
        instance.start();
        ProbeEventParser parser = (ProbeEventParser) instance.getEventParser();
        MetaManager meta = instance.getMetaManager();
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        meta.subscribe(client);
        meta.updateCursor(client, ACKED);
        instance.stop();

        assertThat(parser.observations()).containsExactly("start: meta true, store true, sink true",
                "stop: meta true, store true, sink true");
        assertThat(conf.resolve("example/meta.dat")).content().contains("\"journalName\":\"mysql-bin.000001\"",
                "\"position\":1234");
        assertThat(instance.isStart()).isFalse();
    }

    @Test
    void restartedFileInstanceResumesFromTheFlushedCursor() throws IOException {
        instanceFile("example");
        SpringCanalInstanceGenerator generator = generator(canalProperties());
        CanalInstance first = generator.generate("example");
        first.start();
        ClientIdentity client = new ClientIdentity("example", (short) 1001);
        first.getMetaManager().subscribe(client);
        first.getMetaManager().updateCursor(client, ACKED);
        first.stop();

        CanalInstance second = generator.generate("example");
        second.start();
        try {
            assertThat(second.getMetaManager().getCursor(client)).isEqualTo(ACKED);
        } finally {
            second.stop();
        }
    }

    @Test
    void globalXmlKeySelectsTheMemoryFlavour() throws IOException {
        instanceFile("example");
        CanalInstance instance = generator(canalProperties(
                "canal.instance.global.spring.xml", "classpath:spring/memory-instance.xml")).generate("example");

        assertThat(instance.getMetaManager()).isExactlyInstanceOf(MemoryMetaManager.class);
        instance.start();
        instance.stop();
        assertThat(conf.resolve("example/meta.dat")).doesNotExist();
    }

    @Test
    void perDestinationXmlKeyBeatsTheGlobalOne() throws IOException {
        instanceFile("example");
        instanceFile("orders");
        SpringCanalInstanceGenerator generator = generator(canalProperties(
                "canal.instance.global.spring.xml", "classpath:spring/file-instance.xml",
                "canal.instance.orders.spring.xml", "classpath:spring/memory-instance.xml"));

        assertThat(generator.generate("orders").getMetaManager()).isExactlyInstanceOf(MemoryMetaManager.class);
        assertThat(generator.generate("example").getMetaManager()).isInstanceOf(FileMixedMetaManager.class);
    }

    @Test
    void instancePropertiesWinOverCanalPropertiesAndBlankFallsBack() throws IOException {
        instanceFile("example", "canal.instance.memory.buffer.size=32", "test.parser.label=");
        instanceFile("orders", "canal.instance.memory.buffer.size=   ");
        SpringCanalInstanceGenerator generator = generator(canalProperties(
                "canal.instance.memory.buffer.size", "64", "test.parser.label", "  "));

        CanalInstance example = generator.generate("example");
        CanalInstance orders = generator.generate("orders");

        assertThat(((MemoryEventStore) example.getEventStore()).config().bufferSize()).isEqualTo(32);
        assertThat(((MemoryEventStore) orders.getEventStore()).config().bufferSize()).isEqualTo(64);
        assertThat(((ProbeEventParser) example.getEventParser()).label()).isEqualTo("unlabelled");
    }

    @Test
    void placeholderTakesTheInstanceValueTrimmed() throws IOException {
        instanceFile("example", "test.parser.label=  from instance  ");
        CanalInstance instance = generator(canalProperties("test.parser.label", "from canal")).generate("example");

        assertThat(((ProbeEventParser) instance.getEventParser()).label()).isEqualTo("from instance");
    }

    @Test
    void invalidValueNamesTheKeyAndTheFileItCameFrom() throws IOException {
        Path file = instanceFile("example", "canal.instance.memory.buffer.size=lots");

        assertThatThrownBy(() -> generator(canalProperties()).generate("example"))
                .isInstanceOf(InstanceConfigException.class)
                .hasMessageContaining("destination example")
                .hasMessageContaining("invalid value 'lots' for canal.instance.memory.buffer.size")
                .hasMessageContaining(file.toString());
    }

    @Test
    void invalidServerWideValueNamesCanalProperties() throws IOException {
        instanceFile("example");

        assertThatThrownBy(() -> generator(canalProperties("canal.file.flush.period", "-5")).generate("example"))
                .isInstanceOf(InstanceConfigException.class)
                .hasMessageContaining("canal.file.flush.period")
                .hasMessageContaining(conf.resolve("canal.properties").toString());
    }

    @Test
    void missingRequiredKeyIsNamedWithBothFiles() throws IOException {
        Path dir = Files.createDirectories(conf.resolve("example"));
        Files.writeString(dir.resolve("instance.properties"), "canal.instance.dbUsername=canal\n");

        assertThatThrownBy(() -> generator(canalProperties()).generate("example"))
                .isInstanceOf(InstanceConfigException.class)
                .hasMessageContaining("canal.instance.master.address")
                .hasMessageContaining("set in neither");
    }

    @Test
    void missingInstanceFileIsNamed() {
        assertThatThrownBy(() -> generator(canalProperties()).generate("ghost"))
                .isInstanceOf(InstanceConfigException.class)
                .hasMessageContaining(conf.resolve("ghost").resolve("instance.properties").toString());
    }

    @Test
    void failedStartReportsTheComponentAndCanBeRetried() throws IOException {
        instanceFile("example", "test.parser.fail=true");
        CanalInstance instance = generator(canalProperties()).generate("example");

        assertThatThrownBy(instance::start)
                .isInstanceOf(InstanceStartException.class)
                .hasMessageContaining("destination example")
                .hasMessageContaining("event parser");
        assertThat(instance.isStart()).isFalse();
        assertThat(instance.getMetaManager().isStart()).isFalse();
        assertThatThrownBy(instance::start).isInstanceOf(InstanceStartException.class);
    }

    @Test
    void subscribeChangeHandsANonEmptyFilterToTheParser() throws IOException {
        instanceFile("example");
        CanalInstance instance = generator(canalProperties()).generate("example");
        instance.start();
        try {
            assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 1, "shop\\..*"))).isTrue();
            assertThat(instance.subscribeChange(new ClientIdentity("example", (short) 2, ""))).isFalse();
            assertThat(((ProbeEventParser) instance.getEventParser()).whiteFilters()).containsExactly("shop\\..*");
        } finally {
            instance.stop();
        }
    }
}
