package dev.canal.deployer;

import dev.canal.connector.mq.MqConfig;
import dev.canal.instance.spring.InstanceProperties;
import dev.canal.protocol.config.ConfigValueException;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * One destination's configuration, read once per deploy or redeploy and held beside its instance: what builds the
 * instance, what is validated and warned about, and what its MQ worker starts with, however long after the deploy
 * the election activates it. Nothing re-reads the destination's file while this is held.
 *
 * @param properties the resolved values, which also say where each came from
 * @param effective  the values the instance and its MQ worker see
 * @param mq         the destination's MQ settings in an MQ mode, validated; null in tcp mode
 */
public record DestinationConfig(InstanceProperties properties, Properties effective, MqConfig mq) {

    /**
     * @param mqMode whether the server runs an MQ mode, whose settings are then read and validated
     * @throws ConfigException naming the key and where it is set when the MQ settings are invalid
     */
    static DestinationConfig of(InstanceProperties properties, boolean mqMode) {
        Properties effective = properties.effective();
        return new DestinationConfig(properties, effective, mqMode ? mqSettings(properties, effective) : null);
    }

    public String destination() {
        return properties.destination();
    }

    /** The keys of the destination's own file that nothing here acts on, but those reported for the server. */
    UnusedKeys unusedKeys(Set<String> reportedForTheServer) {
        return UnusedKeys.of(properties, reportedForTheServer);
    }

    private static MqConfig mqSettings(InstanceProperties properties, Properties effective) {
        try {
            return MqConfig.from(effective);
        } catch (ConfigValueException e) {
            throw ConfigException.invalid(e, properties);
        }
    }
}
