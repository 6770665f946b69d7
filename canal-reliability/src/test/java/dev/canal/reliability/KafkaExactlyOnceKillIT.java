package dev.canal.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.KafkaBrokerExtension;
import dev.canal.testsupport.MySqlServer;
import dev.canal.testsupport.MySqlServerExtension;
import dev.canal.testsupport.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once into Kafka through crashes (docs/mq.md, docs/reliability.md): the packaged daemon in Kafka mode with
 * {@code canal.mq.transaction=true} and its cursors in a real ZooKeeper, while a writer commits two-row transactions
 * that insert or version-update 50 keys. The active daemon is killed with SIGKILL and started again
 * {@code eos.restarts} times, and {@code eos.failovers} times a standby is started and takes over from the killed
 * one. A consumer reading committed data then holds every row exactly once, each key's versions in order; a consumer
 * reading uncommitted data beside it is reported, as it sees the aborted transactions' rows too.
 * {@code bench/kafka-exactly-once.sh} runs 20 restarts and 5 failovers.
 */
@ExtendWith({MySqlServerExtension.class, KafkaBrokerExtension.class})
class KafkaExactlyOnceKillIT {

    private static final String SCHEMA = "eos_trial";
    private static final String TOPIC = "eos_rows";
    private static final int PARTITIONS = 3;
    private static final int KEYS = 50;
    private static final Duration DELIVERY_WAIT = Duration.ofSeconds(120);
    private static final String RUNNING = "/otter/canal/destinations/" + CanalDaemon.DESTINATION + "/running";

    @TempDir
    Path home;

    private ZooKeeperServer zooKeeper;
    private final CanalDaemon[] daemons = new CanalDaemon[2];

    @AfterEach
    void stopEverything() throws Exception {
        for (CanalDaemon daemon : daemons) {
            if (daemon != null) {
                daemon.stop();
            }
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void readCommittedConsumerReceivesEveryRowOnceInKeyOrderThroughKillsAndFailovers(MySqlServer db,
            KafkaBroker broker) throws Exception {
        int restarts = Integer.getInteger("eos.restarts", 1);
        int failovers = Integer.getInteger("eos.failovers", 1);
        db.recreateDatabase(SCHEMA);
        broker.createTopic(TOPIC, PARTITIONS);
        zooKeeper = ZooKeeperServer.start();
        VersionWriter writer = new VersionWriter(db, SCHEMA, KEYS);
        MySqlServer.BinlogCoordinates start = db.currentBinlogPosition();
        daemons[0] = member("first", db, broker, start);
        daemons[1] = member("second", db, broker, start);
        Random random = new Random(35);
        long began = System.nanoTime();
        try (KafkaRowVersions committed = new KafkaRowVersions(broker.bootstrapServers(), TOPIC, PARTITIONS,
                "read_committed", KEYS);
                KafkaRowVersions uncommitted = new KafkaRowVersions(broker.bootstrapServers(), TOPIC, PARTITIONS,
                        "read_uncommitted", KEYS)) {
            int active = 0;
            daemons[active].startWithoutClientPort();
            writer.begin();
            int cycles = restarts + failovers;
            for (int cycle = 0; cycle < cycles; cycle++) {
                boolean failover = isFailover(cycle, cycles, failovers);
                awaitProgress(daemons[active], committed, "before kill " + (cycle + 1));
                TimeUnit.MILLISECONDS.sleep(random.nextInt(1500));
                if (failover) {
                    int standby = 1 - active;
                    daemons[standby].startWithoutClientPort();
                    daemons[active].kill9();
                    active = standby;
                } else {
                    daemons[active].kill9();
                    daemons[active].startWithoutClientPort();
                }
                System.out.printf("KafkaExactlyOnceKillIT: kill %d of %d (%s), %d rows written, %d received%n",
                        cycle + 1, cycles, failover ? "failover to the standby" : "restart", writer.rows(),
                        committed.rows());
            }
            awaitProgress(daemons[active], committed, "after the last kill");
            writer.close();
            long written = writer.rows();
            daemons[active].awaitOrShowLogs("every written row received", DELIVERY_WAIT,
                    () -> committed.rows() >= written);
            TimeUnit.SECONDS.sleep(2); // long enough for a duplicate to show
            KafkaRowVersions.Delivery delivery = committed.compare(writer.versions());
            KafkaRowVersions.Delivery unfiltered = uncommitted.compare(writer.versions());
            System.out.printf("KafkaExactlyOnceKillIT: %d restarts and %d failovers in %d s; %d rows written;"
                    + " read_committed: %d received, %d lost, %d duplicates, %d keys out of order;"
                    + " read_uncommitted: %d received, %d duplicates%n", restarts, failovers,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began), written, delivery.received(),
                    delivery.lost(), delivery.duplicates(), delivery.keysOutOfOrder(), unfiltered.received(),
                    unfiltered.duplicates());
            assertThat(delivery).isEqualTo(new KafkaRowVersions.Delivery(written, 0, 0, 0));
        }
    }

    /** The failovers spread evenly over the cycles: each ends one of {@code failovers} equal runs of cycles. */
    private static boolean isFailover(int cycle, int cycles, int failovers) {
        for (int run = 1; run <= failovers; run++) {
            if (cycle == run * cycles / failovers - 1) {
                return true;
            }
        }
        return false;
    }

    /** Waits until the daemon holds the destination and new rows arrived through it. */
    private void awaitProgress(CanalDaemon daemon, KafkaRowVersions consumer, String when) {
        daemon.awaitOrShowLogs(when + ": the daemon runs the destination", DELIVERY_WAIT,
                () -> runningPort() == daemon.port);
        long before = consumer.rows();
        daemon.awaitOrShowLogs(when + ": rows arrive", DELIVERY_WAIT, () -> consumer.rows() > before + 100);
    }

    private CanalDaemon member(String name, MySqlServer db, KafkaBroker broker, MySqlServer.BinlogCoordinates start)
            throws Exception {
        CanalDaemon member = CanalDaemon.unpack(Files.createDirectories(home.resolve(name)), db, db.host(), db.port(),
                SCHEMA, start);
        member.set("conf/canal.properties", "canal.serverMode", "kafka");
        member.set("conf/canal.properties", "kafka.bootstrap.servers", broker.bootstrapServers());
        member.set("conf/canal.properties", "canal.mq.transaction", "true");
        member.set("conf/canal.properties", "canal.zkServers", zooKeeper.connectString());
        member.set("conf/canal.properties", "canal.register.ip", "127.0.0.1");
        member.set("conf/canal.properties", "canal.zookeeper.flush.period", "100");
        member.set("conf/canal.properties", "canal.instance.global.spring.xml", "classpath:spring/default-instance.xml");
        member.edit("conf/example/instance.properties", text -> text + "\ncanal.mq.topic = " + TOPIC
                + "\ncanal.mq.partitionsNum = " + PARTITIONS + "\ncanal.mq.partitionHash = " + SCHEMA + "\\\\.t:id\n");
        return member;
    }

    /** The client port of the daemon ZooKeeper names as running the destination; -1 when there is no such node. */
    private int runningPort() throws Exception {
        try (CuratorFramework zk = zooKeeper.newClient()) {
            Matcher port = Pattern.compile(":(\\d+)\"").matcher(new String(zk.getData().forPath(RUNNING),
                    StandardCharsets.UTF_8));
            return port.find() ? Integer.parseInt(port.group(1)) : -1;
        } catch (KeeperException.NoNodeException none) {
            return -1;
        }
    }
}
