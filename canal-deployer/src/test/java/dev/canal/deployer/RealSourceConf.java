package dev.canal.deployer;

import dev.canal.instance.spring.InstanceProperties.Source;
import dev.canal.testsupport.MySqlServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** A conf dir for a launcher in this JVM whose destination reads one schema of the test database. */
final class RealSourceConf {

    private RealSourceConf() {
    }

    /** canal.properties with no fixed port, the conf dir as data dir, one destination, plus the given keys. */
    static Source canalProperties(Path conf, String destination, String... keyValues) {
        Properties p = new Properties();
        p.setProperty("canal.port", "0");
        p.setProperty("canal.metrics.pull.port", "0");
        p.setProperty("canal.conf.dir", conf.toString());
        p.setProperty("canal.file.data.dir", "${canal.conf.dir}");
        p.setProperty("canal.destinations", destination);
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new Source(conf.resolve("canal.properties").toString(), p);
    }

    /** The destination's instance.properties: the schema's tables, from the source's current binlog position. */
    static void writeInstance(Path conf, String destination, MySqlServer db, String schema, String... extraLines)
            throws IOException {
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        List<String> lines = new ArrayList<>(List.of(
                "canal.instance.master.address=" + db.host() + ":" + db.port(),
                "canal.instance.master.journal.name=" + start.file(),
                "canal.instance.master.position=" + start.position(),
                "canal.instance.dbUsername=" + db.replicationUser(),
                "canal.instance.dbPassword=" + db.replicationPassword(),
                "canal.instance.filter.regex=" + schema + "\\\\..*"));
        lines.addAll(List.of(extraLines));
        Path dir = Files.createDirectories(conf.resolve(destination));
        Files.writeString(dir.resolve("instance.properties"), String.join("\n", lines) + "\n");
    }
}
