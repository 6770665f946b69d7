package dev.canal.deployer.mq.kafka;

import dev.canal.connector.kafka.KafkaMqRunner;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.mq.MqConfig;
import dev.canal.deployer.ServerMode;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.deployer.mq.MqRunnerFactory;
import dev.canal.protocol.config.TypedProperties;
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
        return new TypedProperties(serverProperties).bool(MqConfig.FLAT_MESSAGE);
    }

    @Override
    public MqRunner create(CanalServer server, Properties serverProperties) {
        return new KafkaRunner(new KafkaMqRunner(server, KafkaProducerConfig.from(serverProperties)));
    }

    private record KafkaRunner(KafkaMqRunner runner) implements MqRunner {

        @Override
        public void validate(Properties destinationProperties) {
            MqConfig.from(destinationProperties);
        }

        @Override
        public void start(String destination, Properties destinationProperties) {
            runner.start(destination, MqConfig.from(destinationProperties));
        }

        @Override
        public void stop(String destination) {
            try {
                runner.stop(destination);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() {
            try {
                runner.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
