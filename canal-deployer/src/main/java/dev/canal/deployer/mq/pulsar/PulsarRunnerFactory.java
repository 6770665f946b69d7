package dev.canal.deployer.mq.pulsar;

import dev.canal.connector.pulsar.PulsarConfig;
import dev.canal.connector.pulsar.PulsarRunner;
import dev.canal.deployer.ServerMode;
import dev.canal.deployer.mq.MqRunner;
import dev.canal.deployer.mq.MqRunnerFactory;
import dev.canal.deployer.mq.workers.WorkersRunner;
import dev.canal.server.CanalServer;
import java.util.Properties;

/** {@code canal.serverMode=pulsarMQ}: canal-connector-pulsar's runner behind the deployer's {@link MqRunner}. */
public final class PulsarRunnerFactory implements MqRunnerFactory {

    @Override
    public ServerMode mode() {
        return ServerMode.PULSARMQ;
    }

    @Override
    public boolean sendsFlatMessages(Properties serverProperties) {
        return WorkersRunner.sendsFlatMessages(serverProperties);
    }

    @Override
    public MqRunner create(CanalServer server, Properties serverProperties) {
        return new WorkersRunner(new PulsarRunner(server, PulsarConfig.from(serverProperties)));
    }
}
