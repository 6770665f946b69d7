package dev.canal.deployer;

import dev.canal.deployer.admin.AdminConfig;
import dev.canal.protocol.config.CommonKeys;
import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigKeySource;
import java.util.List;
import java.util.stream.Stream;

/**
 * The server's own keys of canal.properties, the keys several modules share, and Canal's keys for features this
 * server does not have, for the key catalogue.
 */
public final class DeployerConfigKeys extends ConfigKeySource {

    static final ConfigKey CONF_FILE = ConfigKey.canal(CanalLauncher.CONF_PROPERTY, "classpath:canal.properties",
            "A system property (-Dcanal.conf=...), not a key of the file: where canal.properties is read from.");

    /** Canal's keys for features this server does not have; accepted and named in the start-up warning. */
    static final List<ConfigKey> NOT_SUPPORTED = List.of(
            ConfigKey.unsupported("canal.instance.{destination}.manager.address",
                    "canal-admin's address for one destination; not implemented."),
            ConfigKey.unsupported("canal.socketChannel", "Canal's choice of socket implementation; not needed here."),
            ConfigKey.unsupported("canal.aliyun.*", "Aliyun credentials for RDS and its MQ; not implemented."),
            ConfigKey.unsupported("canal.mq.accessChannel", "RocketMQ's access channel (local or cloud); not implemented."));

    public DeployerConfigKeys() {
        super("Server", "canal.properties", Stream.of(List.of(CONF_FILE), CanalServerConfig.KEYS, CommonKeys.KEYS,
                AdminConfig.KEYS, NOT_SUPPORTED).flatMap(List::stream).toList());
    }
}
