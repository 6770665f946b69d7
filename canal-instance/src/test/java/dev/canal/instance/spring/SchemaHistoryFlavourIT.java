package dev.canal.instance.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.instance.CanalInstance;
import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The shipped flavours' schema histories against a real source: Canal's defaults, never one file for two parsers. */
@ExtendWith(MySqlServerExtension.class)
class SchemaHistoryFlavourIT {

    private static final String HISTORY_FILE = "meta_history.jsonl";

    @TempDir
    Path conf;

    private CanalInstance instance;

    @AfterEach
    void stop() {
        if (instance != null) {
            instance.stop();
        }
    }

    private CanalInstance start(String xml, List<String> lines) throws IOException {
        Files.createDirectories(conf.resolve("example"));
        Files.writeString(conf.resolve("example/instance.properties"), String.join("\n", lines) + "\n");
        Properties p = new Properties();
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", conf.toString());
        p.setProperty("canal.instance.global.spring.xml", "classpath:spring/" + xml);
        instance = new SpringCanalInstanceGenerator(new Source("canal.properties", p), conf).generate("example");
        instance.start();
        return instance;
    }

    private static List<String> source(MySqlServer db, String prefix, String schema) {
        MySqlServer.BinlogCoordinates from = db.currentBinlogPosition();
        return List.of(prefix + ".address=" + db.host() + ":" + db.port(),
                prefix + ".journal.name=" + from.file(), prefix + ".position=" + from.position(),
                "canal.instance.dbUsername=" + db.replicationUser(),
                "canal.instance.dbPassword=" + db.replicationPassword(),
                "canal.instance.filter.regex=" + schema + "\\\\..*");
    }

    @Test
    void groupMembersWithHistoryOnEachRecordTheDdlInTheirOwnHistory(MySqlServer db) throws Exception {
        db.recreateDatabase("flavour_group");
        List<String> lines = new ArrayList<>(source(db, "canal.instance.master1", "flavour_group"));
        lines.addAll(source(db, "canal.instance.master2", "flavour_group"));
        lines.add("canal.instance.tsdb.enable=true");
        start("group-instance.xml", lines);

        db.execute("CREATE TABLE flavour_group.t (id INT PRIMARY KEY)");

        Path dir = conf.resolve("example");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (String member : List.of("master1", "master2")) {
                assertThat(ddlLines(dir.resolve(member).resolve(HISTORY_FILE))).as(member).hasSize(1);
            }
        });
        assertThat(dir.resolve(HISTORY_FILE)).as("no history shared by both").doesNotExist();
    }

    @Test
    void memoryFlavourRecordsNoHistoryUnlessTurnedOn(MySqlServer db) throws Exception {
        db.recreateDatabase("flavour_memory");
        start("memory-instance.xml", source(db, "canal.instance.master", "flavour_memory"));

        db.execute("CREATE TABLE flavour_memory.t (id INT PRIMARY KEY)", "INSERT INTO flavour_memory.t VALUES (1)");

        await().atMost(Duration.ofSeconds(30)).until(() -> instance.getEventStore().getLatestPosition() != null);
        assertThat(conf.resolve("example").resolve(HISTORY_FILE)).doesNotExist();
    }

    private static List<String> ddlLines(Path history) throws IOException {
        if (!Files.exists(history)) {
            return List.of();
        }
        return Files.readAllLines(history).stream().filter(l -> l.contains("CREATE TABLE")).toList();
    }
}
