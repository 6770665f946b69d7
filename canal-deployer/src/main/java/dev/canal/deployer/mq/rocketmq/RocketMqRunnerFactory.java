package dev.canal.deployer.mq.rocketmq;

import dev.canal.connector.rocketmq.RocketMqConfig;
import dev.canal.connector.rocketmq.RocketMqRunner;
import dev.canal.deployer.ServerMode;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.deployer.mq.MqRunnerFactory;
import dev.canal.deployer.mq.workers.WorkersRunner;
import dev.canal.server.CanalServer;
import java.util.Properties;

/** {@code canal.serverMode=rocketMQ}: canal-connector-rocketmq's runner behind the deployer's {@link MqRunner}. */
public final class RocketMqRunnerFactory implements MqRunnerFactory {

    @Override
    public ServerMode mode() {
        return ServerMode.ROCKETMQ;
    }

    @Override
    public boolean sendsFlatMessages(Properties serverProperties) {
        return WorkersRunner.sendsFlatMessages(serverProperties);
    }

    @Override
    public MqRunner create(CanalServer server, Properties serverProperties) {
        return new WorkersRunner(new RocketMqRunner(server, RocketMqConfig.from(serverProperties)));
    }
}
