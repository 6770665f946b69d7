package dev.canal.deployer.mq.rabbitmq;

import dev.canal.connector.rabbitmq.RabbitMqConfig;
import dev.canal.connector.rabbitmq.RabbitMqRunner;
import dev.canal.deployer.ServerMode;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.deployer.mq.MqRunnerFactory;
import dev.canal.deployer.mq.workers.WorkersRunner;
import dev.canal.server.CanalServer;
import java.util.Properties;

/** {@code canal.serverMode=rabbitMQ}: canal-connector-rabbitmq's runner behind the deployer's {@link MqRunner}. */
public final class RabbitMqRunnerFactory implements MqRunnerFactory {

    @Override
    public ServerMode mode() {
        return ServerMode.RABBITMQ;
    }

    @Override
    public boolean sendsFlatMessages(Properties serverProperties) {
        return WorkersRunner.sendsFlatMessages(serverProperties);
    }

    @Override
    public MqRunner create(CanalServer server, Properties serverProperties) {
        return new WorkersRunner(new RabbitMqRunner(server, RabbitMqConfig.from(serverProperties)));
    }
}
