package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.testsupport.LogCapture;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's subscribe filter outlives a restart of the daemon: the instance filters by it from its first event,
 * before the client is back, so rows of tables only that filter names are not lost while the client reconnects.
 */
@ExtendWith(MySqlServerExtension.class)
class SubscriptionFilterRestartIT {

    private static final String SCHEMA = "deployer_sub_filter";
    private static final String DESTINATION = "subfilter";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path conf;

    private CanalController controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.stop();
        }
    }

    @Test
    void rowsOfTablesOnlyTheSubscribedFilterNamesArriveAfterARestart(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".configured (id INT PRIMARY KEY)");
        db.execute("CREATE TABLE " + SCHEMA + ".subscribed (id INT PRIMARY KEY)");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA,
                "canal.instance.filter.regex=" + SCHEMA + "\\\\.configured");
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION));
        ClientIdentity client = new ClientIdentity(DESTINATION, (short) 1001, SCHEMA + "\\..*");
        controller.server().subscribe(client);
        db.execute("INSERT INTO " + SCHEMA + ".subscribed VALUES (1)");
        db.execute("INSERT INTO " + SCHEMA + ".configured VALUES (1)");
        assertThat(takeUntil(client, "configured:1")).containsExactly("subscribed:1", "configured:1");

        controller.stop();
        controller = null;
        db.execute("INSERT INTO " + SCHEMA + ".subscribed VALUES (2)");
        db.execute("INSERT INTO " + SCHEMA + ".subscribed VALUES (3)");
        db.execute("INSERT INTO " + SCHEMA + ".configured VALUES (2)");
        try (LogCapture log = LogCapture.attach("dev.canal.instance")) {
            controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION));
            assertThat(log.messages(Level.WARN)).as("the start-up note naming the saved filter and its client")
                    .anySatisfy(m -> assertThat(m).contains("'" + SCHEMA + "\\..*'", "client 1001",
                            "canal.instance.filter.regex"));
        }

        // no new subscribe: the client is known from its saved subscription, as after a reconnect
        assertThat(takeUntil(new ClientIdentity(DESTINATION, (short) 1001), "configured:2"))
                .containsExactly("subscribed:2", "subscribed:3", "configured:2");
    }

    /** Takes and acks batches until the row {@code last} ("table:id") arrived; returns every row seen, in order. */
    private List<String> takeUntil(ClientIdentity client, String last) {
        List<String> rows = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            Message batch = controller.server().getWithoutAck(client, 100, 200L, TimeUnit.MILLISECONDS);
            for (CanalEntry.Entry entry : entries(batch)) {
                if (entry.getEntryType() == CanalEntry.EntryType.ROWDATA) {
                    CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
                    for (CanalEntry.RowData row : change.getRowDatasList()) {
                        rows.add(entry.getHeader().getTableName() + ":" + row.getAfterColumns(0).getValue());
                    }
                }
            }
            if (!batch.isEmpty()) {
                controller.server().ack(client, batch.id());
            }
            return rows.contains(last);
        });
        return rows;
    }

    private static List<CanalEntry.Entry> entries(Message batch) throws InvalidProtocolBufferException {
        if (!batch.raw()) {
            return batch.entries();
        }
        List<CanalEntry.Entry> entries = new ArrayList<>();
        for (ByteString bytes : batch.rawEntries()) {
            entries.add(CanalEntry.Entry.parseFrom(bytes));
        }
        return entries;
    }
}
