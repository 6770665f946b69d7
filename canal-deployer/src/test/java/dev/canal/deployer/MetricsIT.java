package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.Message;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.TcpPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's Prometheus exporter on a destination reading a real database: the
 * endpoint names the destination, and its put, get and ack row counters follow rows as a client takes and acks
 * them, and the parser series follow the binlog read.
 */
@ExtendWith(MySqlServerExtension.class)
class MetricsIT {

    private static final String SCHEMA = "deployer_metrics";
    private static final String DESTINATION = "metrics";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path conf;

    @AutoClose("stop")
    private CanalController controller;

    @Test
    void putGetAndAckRowSeriesMoveWhileRowsFlow(MySqlServer db) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA);
        int metricsPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.metrics.pull.port", String.valueOf(metricsPort)));
        assertThat(controller.metricsPort()).isEqualTo(metricsPort);

        Exposition first = Exposition.scrape(metricsPort);
        assertThat(first.value("canal_instance", DESTINATION)).isEqualTo(1);
        assertThat(first.has("canal_instance_put_rows", DESTINATION)).isTrue();

        ClientIdentity client = new ClientIdentity(DESTINATION, (short) 1001);
        controller.server().subscribe(client);
        takeAndAck(db, client, 1, 3);
        takeAndAck(db, client, 4, 7);
    }

    @Test
    void parserSeriesCarryCanalsNamesAndLabelsAndCountTheBinlogRead(MySqlServer db) throws Exception {
        int metricsPort = startOn(db, "canal.instance.parser.parallel=true");
        Exposition first = Exposition.scrape(metricsPort);
        assertThat(first.text()).contains(
                "canal_instance_parser_mode{destination=\"" + DESTINATION + "\",parallel=\"true\"} 1.0",
                "canal_instance_publish_blocking_time{destination=\"" + DESTINATION + "\",parser=\"0\"} ",
                "canal_instance_received_binlog_bytes{destination=\"" + DESTINATION + "\",parser=\"0\"} ");
        double received = first.value("canal_instance_received_binlog_bytes", DESTINATION);

        db.execute("INSERT INTO " + SCHEMA + ".t VALUES (1, '" + "x".repeat(30) + "')");
        await().atMost(WAIT).until(() -> scrape("canal_instance_received_binlog_bytes") >= received + 30);
    }

    @Test
    void aSerialParserReportsItsModeAndNoPublishBlockingTime(MySqlServer db) throws Exception {
        int metricsPort = startOn(db, "canal.instance.parser.parallel=false");
        Exposition scrape = Exposition.scrape(metricsPort);
        assertThat(scrape.text())
                .contains("canal_instance_parser_mode{destination=\"" + DESTINATION + "\",parallel=\"false\"} 1.0")
                .doesNotContain("canal_instance_publish_blocking_time");
        assertThat(scrape.has("canal_instance_received_binlog_bytes", DESTINATION)).isTrue();
    }

    /** Starts the launcher on a destination reading the test schema; returns the metrics port. */
    private int startOn(MySqlServer db, String... instanceLines) throws Exception {
        db.recreateDatabase(SCHEMA);
        db.execute("CREATE TABLE " + SCHEMA + ".t (id INT PRIMARY KEY, v VARCHAR(32))");
        RealSourceConf.writeInstance(conf, DESTINATION, db, SCHEMA, instanceLines);
        int metricsPort = TcpPorts.free();
        controller = CanalLauncher.start(RealSourceConf.canalProperties(conf, DESTINATION,
                "canal.metrics.pull.port", String.valueOf(metricsPort)));
        return metricsPort;
    }

    /** Inserts rows from..to, then checks each counter moves by that many as the rows are put, got and acked. */
    private void takeAndAck(MySqlServer db, ClientIdentity client, int from, int to) {
        int rows = to - from + 1;
        Exposition before = Exposition.scrape(controller.metricsPort());
        double put = before.value("canal_instance_put_rows", DESTINATION);
        double got = before.value("canal_instance_get_rows", DESTINATION);
        double acked = before.value("canal_instance_ack_rows", DESTINATION);
        for (int id = from; id <= to; id++) {
            db.execute("INSERT INTO " + SCHEMA + ".t VALUES (" + id + ", 'row " + id + "')");
        }

        await().atMost(WAIT).until(() -> scrape("canal_instance_put_rows") >= put + rows);
        assertThat(scrape("canal_instance_get_rows")).isEqualTo(got);
        Message batch = controller.server().getWithoutAck(client, 1000, 1000L, TimeUnit.MILLISECONDS);
        assertThat(batch.isEmpty()).isFalse();
        assertThat(scrape("canal_instance_get_rows")).isEqualTo(got + rows);
        assertThat(scrape("canal_instance_ack_rows")).isEqualTo(acked);
        controller.server().ack(client, batch.id());
        assertThat(scrape("canal_instance_ack_rows")).isEqualTo(acked + rows);
    }

    private double scrape(String metric) {
        return Exposition.scrape(controller.metricsPort()).value(metric, DESTINATION);
    }
}
