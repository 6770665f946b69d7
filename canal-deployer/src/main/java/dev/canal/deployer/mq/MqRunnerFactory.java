package dev.canal.deployer.mq;

import dev.canal.deployer.ServerMode;
import dev.canal.server.CanalServer;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * Builds the {@link MqRunner} of one {@code canal.serverMode}. Implementations are found through
 * {@link ServiceLoader} and only when an MQ mode is configured, so a tcp server never loads a broker client's
 * classes (docs/architecture.md: the core has no broker library on its class path; the connector and its broker client are
 * only reached from here).
 */
public interface MqRunnerFactory {

    ServerMode mode();

    /**
     * Whether the server's settings make this mode send flat messages, which are built from parsed entries, so the
     * store must not keep entries serialized.
     */
    boolean sendsFlatMessages(Properties serverProperties);

    /** @throws IllegalArgumentException naming the key when a producer setting is invalid */
    MqRunner create(CanalServer server, Properties serverProperties);

    /** The factory of the mode; fails naming the mode when none is on the class path. */
    static MqRunnerFactory of(ServerMode mode) {
        return ServiceLoader.load(MqRunnerFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(factory -> factory.mode() == mode)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no MQ connector for canal.serverMode "
                        + mode.name().toLowerCase(java.util.Locale.ROOT) + " on the class path"));
    }
}
