package dev.canal.connector.pulsar;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.Secrets;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The Pulsar producer settings of MQ mode ({@code pulsarmq.*}, docs/mq.md), with Canal's defaults (all empty).
 *
 * @param serverUrl         the service URL, e.g. {@code pulsar://127.0.0.1:6650}
 * @param roleToken         a token to authenticate with, empty for none
 * @param topicTenantPrefix put before every topic name, e.g. {@code persistent://tenant/namespace}, empty for none
 * @param sendTimeoutMs     how long a batch waits for the broker's acknowledgements before it is rolled back
 */
public record PulsarConfig(String serverUrl, String roleToken, String topicTenantPrefix, long sendTimeoutMs) {

    public static final ConfigKey SERVER_URL = ConfigKey.canal("pulsarmq.serverUrl", "",
            "The Pulsar service URL, e.g. pulsar://127.0.0.1:6650; required in pulsarMQ mode.");
    public static final ConfigKey ROLE_TOKEN = ConfigKey.canal("pulsarmq.roleToken", "",
            "A token the producer authenticates with (it needs the produce permission); empty: no authentication.");
    public static final ConfigKey TOPIC_TENANT_PREFIX = ConfigKey.canal("pulsarmq.topicTenantPrefix", "",
            "Put before every topic name, joined with /, e.g. persistent://public/default; empty: the topic name "
                    + "as it is (Pulsar reads it in public/default).");
    public static final ConfigKey SEND_TIMEOUT = ConfigKey.ours("pulsarmq.send.timeout", "30000",
            "Milliseconds a batch waits for the broker to acknowledge all its messages (the producer's send "
                    + "timeout); then it is rolled back and sent again.");

    public static final List<ConfigKey> KEYS = List.of(SERVER_URL, ROLE_TOKEN, TOPIC_TENANT_PREFIX, SEND_TIMEOUT,
            ConfigKey.unsupported("pulsarmq.adminServerUrl",
                    "Canal creates partitioned topics through this admin URL; create them beforehand instead."));

    public PulsarConfig {
        if (serverUrl.isEmpty()) {
            throw ConfigValueException.missing(SERVER_URL.name(), "pulsarMQ mode needs the broker's "
                    + "service URL, e.g. pulsar://127.0.0.1:6650");
        }
        if (!serverUrl.startsWith("pulsar://") && !serverUrl.startsWith("pulsar+ssl://")
                && !serverUrl.startsWith("http://") && !serverUrl.startsWith("https://")) {
            throw ConfigValueException.invalid(SERVER_URL.name(), serverUrl,
                    "expected pulsar://host:port (or pulsar+ssl://, http://, https://)");
        }
        if (sendTimeoutMs < 1) {
            throw ConfigValueException.invalid(SEND_TIMEOUT.name(), Long.toString(sendTimeoutMs), "must be at least 1");
        }
    }

    /** Reads the {@code pulsarmq.*} keys (blank counts as absent); fails naming the key of an invalid value. */
    public static PulsarConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        return new PulsarConfig(p.string(SERVER_URL).trim(), p.string(ROLE_TOKEN).trim(),
                p.string(TOPIC_TENANT_PREFIX).trim(), p.longValue(SEND_TIMEOUT));
    }

    /** The topic the producer opens for a Canal topic name: the prefix and the name joined with one slash, as Canal does. */
    public String fullTopic(String topic) {
        if (topicTenantPrefix.isEmpty()) {
            return topic;
        }
        return topicTenantPrefix.endsWith("/") ? topicTenantPrefix + topic : topicTenantPrefix + "/" + topic;
    }

    @Override
    public String toString() {
        return Secrets.toString(this, Set.of("roleToken")); // never the secret itself
    }
}
