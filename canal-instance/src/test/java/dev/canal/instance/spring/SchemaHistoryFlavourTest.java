package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.GroupEventParser;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.parse.mysql.MysqlEventParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether each shipped flavour keeps a schema history, and where: Canal's defaults, one history per parser. */
class SchemaHistoryFlavourTest {

    @TempDir
    Path conf;

    private CanalInstance generate(String xml, String... instanceLines) throws IOException {
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"), String.join("\n", instanceLines) + "\n");
        Properties p = new Properties();
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", conf.toString());
        p.setProperty("canal.instance.global.spring.xml", "classpath:spring/" + xml);
        return new SpringCanalInstanceGenerator(new Source("canal.properties", p), conf).generate("example");
    }

    private static TsdbConfig history(CanalInstance instance) {
        return ((MysqlEventParser) instance.getEventParser()).schemaHistoryConfig();
    }

    private static List<TsdbConfig> memberHistories(CanalInstance instance) {
        return ((GroupEventParser) instance.getEventParser()).members().stream()
                .map(m -> ((MysqlEventParser) m).schemaHistoryConfig()).toList();
    }

    @Test
    void memoryFlavourKeepsNoSchemaHistoryUnlessTheKeyTurnsItOn() throws IOException {
        CanalInstance off = generate("memory-instance.xml", "canal.instance.master.address=127.0.0.1:3306");
        assertThat(history(off).enable()).isFalse();
        off.stop();

        CanalInstance on = generate("memory-instance.xml", "canal.instance.master.address=127.0.0.1:3306",
                "canal.instance.tsdb.enable=true");
        assertThat(history(on).enable()).isTrue();
        on.stop();
    }

    @Test
    void fileFlavourKeepsTheSchemaHistoryInTheDestinationsDirectory() throws IOException {
        CanalInstance instance = generate("file-instance.xml", "canal.instance.master.address=127.0.0.1:3306");

        assertThat(history(instance).enable()).isTrue();
        assertThat(history(instance).dir()).isEqualTo(conf.resolve("example"));
        instance.stop();
    }

    @Test
    void groupFlavourKeepsNoSchemaHistoryByDefault() throws IOException {
        CanalInstance instance = generate("group-instance.xml", "canal.instance.master1.address=db1.local:3306",
                "canal.instance.master2.address=db2.local:3306");

        assertThat(memberHistories(instance)).extracting(TsdbConfig::enable).containsExactly(false, false);
        instance.stop();
    }

    @Test
    void groupMembersTurnedOnKeepOneSchemaHistoryEach() throws IOException {
        CanalInstance instance = generate("group-instance.xml", "canal.instance.master1.address=db1.local:3306",
                "canal.instance.master2.address=db2.local:3306", "canal.instance.tsdb.enable=true");

        assertThat(memberHistories(instance)).extracting(TsdbConfig::enable).containsExactly(true, true);
        assertThat(memberHistories(instance)).extracting(TsdbConfig::dir)
                .containsExactly(conf.resolve("example/master1"), conf.resolve("example/master2"));
        instance.stop();
    }
}
