package dev.canal.connector.kafka;

import dev.canal.connector.mq.MqConfig;
import dev.canal.connector.mq.MqDestinationWorker;
import dev.canal.connector.mq.MqProducer;
import dev.canal.instance.TestInstance;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.position.LogPosition;
import dev.canal.server.EmbeddedCanalServer;
import dev.canal.store.StoreConfig;
import dev.canal.testsupport.KafkaBroker;
import dev.canal.testsupport.TestProperties;
import java.util.List;
import java.util.Properties;

/** One destination end to end: a store-backed instance, the embedded server and the Kafka MQ runner. */
final class Pipeline implements AutoCloseable {

    final String destination;
    final TestInstance instance;
    final EmbeddedCanalServer server;
    final KafkaMqRunner runner;

    Pipeline(String destination, StoreConfig store, MqProducer producer) {
        this.destination = destination;
        this.instance = new TestInstance(destination, store);
        this.server = new EmbeddedCanalServer(d -> {
            if (!d.equals(destination)) {
                throw new IllegalArgumentException("no destination " + d);
            }
            return instance;
        });
        server.start();
        server.start(destination);
        this.runner = new KafkaMqRunner(server, producer);
    }

    static Properties producerProperties(KafkaBroker broker, String... extraKeyValues) {
        Properties p = TestProperties.of(extraKeyValues);
        p.putIfAbsent("kafka.bootstrap.servers", broker.bootstrapServers());
        return p;
    }

    static MqConfig mqConfig(String... keyValues) {
        return MqConfig.from(TestProperties.of(keyValues));
    }

    void put(List<CanalEntry.Entry> entries) {
        instance.put(entries);
    }

    void start(MqConfig config) {
        runner.start(destination, config);
    }

    /** The MQ client's acked cursor; null before its first ack of a batch with a transaction boundary. */
    LogPosition cursor() {
        return instance.getMetaManager().getCursor(new ClientIdentity(destination, MqDestinationWorker.CLIENT_ID));
    }

    @Override
    public void close() throws InterruptedException {
        runner.close();
        server.stop();
    }
}
