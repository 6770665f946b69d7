package dev.canal.deployer.mq.kafka;

import dev.canal.connector.kafka.KafkaMqRunner;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.deployer.ServerMode;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.deployer.mq.MqRunnerFactory;
import dev.canal.deployer.mq.workers.WorkersRunner;
import dev.canal.server.CanalServer;
import java.util.Properties;

/** {@code canal.serverMode=kafka}: canal-connector-kafka's runner behind the deployer's {@link MqRunner}. */
public final class KafkaRunnerFactory implements MqRunnerFactory {

    @Override
    public ServerMode mode() {
        return ServerMode.KAFKA;
    }

    @Override
    public boolean sendsFlatMessages(Properties serverProperties) {
        return WorkersRunner.sendsFlatMessages(serverProperties);
    }

    @Override
    public MqRunner create(CanalServer server, Properties serverProperties) {
        return new WorkersRunner(new KafkaMqRunner(server, KafkaProducerConfig.from(serverProperties)));
    }
}
