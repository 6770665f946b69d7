package dev.canal.instance.spring;

import dev.canal.meta.ZooKeeperMetaManager;
import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.protocol.config.TypedProperties;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;

/**
 * With the clients' cursors in ZooKeeper (default-instance.xml) another server can take a destination over, but a
 * schema history in local files stays behind on the server that wrote it. Said once when the instance is built, so
 * the operator learns it before a failover does (docs/compatibility.md, "Schema history").
 */
final class FailoverHistoryWarning {

    private static final Logger log = LoggerFactory.getLogger(FailoverHistoryWarning.class);

    private FailoverHistoryWarning() {
    }

    /** Logs the warning when the built instance keeps cursors in ZooKeeper and its history locally. */
    static void logIfUnshared(String destination, ApplicationContext context, InstanceProperties properties) {
        if (context.getBeansOfType(ZooKeeperMetaManager.class).isEmpty()) {
            return;
        }
        TsdbConfig tsdb = TsdbConfig.fromProperties(new TypedProperties(properties.effective()), destination);
        message(destination, tsdb).ifPresent(log::warn);
    }

    /** What a server taking over lacks, or empty when the history is shared (or there is none to lack). */
    static Optional<String> message(String destination, TsdbConfig tsdb) {
        if (!tsdb.enable() || tsdb.shared()) {
            return Optional.empty();
        }
        return Optional.of("destination " + destination + ": the clients' cursors are in ZooKeeper but the schema "
                + "history is in local files (" + tsdb.dir() + "). A server that takes this destination over after a "
                + "failover has none of it (or a stale copy), so the rows between the acked cursor and the latest DDL "
                + "are decoded with the table definitions the source has now, unless the source logs full row "
                + "metadata (binlog_row_metadata=FULL). Set " + TsdbConfig.URL.name() + " to a jdbc:mysql: database "
                + "every server reaches to share the history.");
    }
}
