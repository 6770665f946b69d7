package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.otter.canal.client.CanalConnector;
import dev.canal.testsupport.MySqlServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 5 (docs/reliability.md): a subscribed client stops asking for data while the writer keeps writing
 * large rows. The daemon's store is small (256 entries, 256 KiB); the rows written during the stall are many
 * times that. The daemon's live heap must not grow by anything near what was written (the parser waits instead
 * of buffering: back-pressure), and when a client resumes it catches up with every row, in order.
 */
class SlowClientIT extends DaemonScenario {

    private static final Logger log = LoggerFactory.getLogger(SlowClientIT.class);
    private static final String SCHEMA = "rel_slow_client";
    private static final int PAYLOAD_BYTES = 16 * 1024;
    private static final int ROWS_DURING_STALL = 2500; // about 40 MiB of row images, 160 times the store

    @Test
    void stalledClientKeepsTheDaemonsHeapBoundedAndCatchesUpWhenItResumes(MySqlServer db) throws Exception {
        int trials = ResultsTable.trials();
        db.recreateDatabase(SCHEMA);
        RowWriter writer = RowWriter.create(db, SCHEMA, 2, Duration.ofMillis(1), PAYLOAD_BYTES);
        daemon = CanalDaemon.unpack(home, db, db.host(), db.port(), SCHEMA, db.currentBinlogPosition());
        daemon.set("conf/canal.properties", "canal.instance.memory.buffer.size", "256");
        daemon.set("conf/canal.properties", "canal.instance.parser.parallelBufferSize", "64");
        daemon.start();
        ProcessHandle server = daemon.pid().orElseThrow();
        List<ReceivedRow> received = new ArrayList<>();
        List<Long> catchUps = new ArrayList<>();
        try (writer) {
            writer.begin();
            for (int trial = 1; trial <= trials; trial++) {
                int session = received.isEmpty() ? 0 : received.get(received.size() - 1).session() + 1;
                CanalConnector stalled = CheckingConsumer.connector(daemon.port);
                stalled.connect();
                try {
                    stalled.subscribe(SCHEMA + "\\..*");
                    received.addAll(receiveAndAckAtLeast(stalled, 20, session));
                    // the client stays connected and subscribed but asks for nothing from here on
                    long liveAtStall = LiveHeap.liveBytes(server);
                    int writtenAtStall = writer.total();
                    await().atMost(Duration.ofSeconds(120)).until(() -> writer.total() >= writtenAtStall + ROWS_DURING_STALL);
                    long liveAfterStall = LiveHeap.liveBytes(server);
                    long writtenBytes = (long) (writer.total() - writtenAtStall) * PAYLOAD_BYTES;
                    log.info("trial {}: live heap {} KiB at the stall, {} KiB after {} KiB were written; RSS {} KiB",
                            trial, liveAtStall / 1024, liveAfterStall / 1024, writtenBytes / 1024,
                            LiveHeap.residentBytes(server) / 1024);
                    assertThat(liveAfterStall - liveAtStall).as("growth of the daemon's live heap during the stall")
                            .isLessThan(writtenBytes / 4);
                } finally {
                    stalled.disconnect();
                }
                int target = writer.total();
                long resumedAt = System.nanoTime();
                try (CheckingConsumer resumed = new CheckingConsumer(daemon.port, SCHEMA, session + 1)) {
                    await().atMost(Duration.ofSeconds(120))
                            .until(() -> CheckingConsumer.distinct(received, resumed.rows()) >= target);
                    catchUps.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resumedAt));
                    resumed.close();
                    received.addAll(resumed.rows());
                }
            }
        }
        CheckingConsumer.receiveTheRest(daemon.port, SCHEMA, received.get(received.size() - 1).session() + 1, received,
                writer.total());
        DeliveryCheck check = DeliveryCheck.of(writer.committed(), received);
        ResultsTable.record("stalled client (store 256 entries / 256 KiB, 16 KiB rows)", trials, check, catchUps);
        assertThat(check.lost()).as("%s; logs:%n%s", check, daemon.logs()).isZero();
        assertThat(check.orderBreaches()).as("%s", check).isEmpty();
    }

    private static List<ReceivedRow> receiveAndAckAtLeast(CanalConnector connector, int wanted, int session) {
        List<ReceivedRow> rows = CheckingConsumer.receiveAndAck(connector, session, wanted, SCHEMA + "\\..*");
        assertThat(rows).as("rows before the stall").hasSizeGreaterThanOrEqualTo(wanted);
        return rows;
    }
}
