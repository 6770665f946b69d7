package dev.canal.connector.rabbitmq;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.Secrets;
import dev.canal.protocol.config.TypedProperties;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The RabbitMQ producer settings of MQ mode ({@code rabbitmq.*}, docs/mq.md), with Canal's defaults (all empty).
 * As in Canal, {@code rabbitmq.deliveryMode} is the exchange's type, and the queue, exchange and binding are declared
 * (durable) when named; each message is published to the exchange with the topic as routing key.
 *
 * @param host              host, or host:port (port 5672 when absent)
 * @param port              the port
 * @param virtualHost       the virtual host
 * @param exchange          the exchange published to; empty: the default exchange, which routes by queue name
 * @param username          login
 * @param password          its password
 * @param queue             a queue to declare and bind, empty when none
 * @param routingKey        the key that binds the queue to the exchange
 * @param exchangeType      the type the exchange is declared with ({@code rabbitmq.deliveryMode})
 * @param confirmTimeoutMs  how long a batch waits for the broker's confirms before it is rolled back and sent again
 * @param mandatory         messages are published {@code mandatory}: one no queue takes fails its batch
 */
public record RabbitMqConfig(String host, int port, String virtualHost, String exchange, String username,
        String password, String queue, String routingKey, String exchangeType, long confirmTimeoutMs,
        boolean mandatory) {

    public static final String PREFIX = "rabbitmq.";
    public static final int DEFAULT_PORT = 5672;
    /** Canal 1.1.4's name of the broker address, read when {@code rabbitmq.host} is empty, as Canal does. */
    private static final String LEGACY_SERVERS = "canal.mq.servers";

    public static final ConfigKey HOST = ConfigKey.canal("rabbitmq.host", "",
            "The broker, host or host:port (port 5672 when absent); empty means the local host.");
    public static final ConfigKey VIRTUAL_HOST = ConfigKey.canal("rabbitmq.virtual.host", "",
            "The virtual host; empty means /.");
    public static final ConfigKey EXCHANGE = ConfigKey.canal("rabbitmq.exchange", "",
            "The exchange every message is published to, with its topic (canal.mq.topic or the dynamic topic) as "
                    + "routing key; declared durable when set. Empty: RabbitMQ's default exchange, which delivers "
                    + "to the queue named like the topic.");
    public static final ConfigKey USERNAME = ConfigKey.canal("rabbitmq.username", "", "Login; empty means guest.");
    public static final ConfigKey PASSWORD = ConfigKey.canal("rabbitmq.password", "",
            "Password of that login; empty means guest.");
    public static final ConfigKey QUEUE = ConfigKey.canal("rabbitmq.queue", "",
            "A queue declared durable at connect and, with an exchange set, bound to it with rabbitmq.routingKey.");
    public static final ConfigKey ROUTING_KEY = ConfigKey.canal("rabbitmq.routingKey", "",
            "The binding key of rabbitmq.queue to rabbitmq.exchange.");
    public static final ConfigKey DELIVERY_MODE = ConfigKey.canal("rabbitmq.deliveryMode", "",
            "The type rabbitmq.exchange is declared with (direct, fanout, topic, headers), as in Canal; empty means "
                    + "direct.");
    public static final ConfigKey CONFIRM_TIMEOUT = ConfigKey.ours("rabbitmq.confirm.timeout", "30000",
            "Milliseconds a batch waits for the broker to confirm all its messages; then it is rolled back and sent "
                    + "again.");

    public static final ConfigKey MANDATORY = ConfigKey.ours("rabbitmq.mandatory", "false",
            "Publish mandatory: a message no queue is bound for is returned, and its batch rolled back and sent again "
                    + "until a queue takes it (the stream waits meanwhile). Off, as in Canal: the broker drops such a "
                    + "message and the batch is acked.");

    public static final List<ConfigKey> KEYS = List.of(HOST, VIRTUAL_HOST, EXCHANGE, USERNAME, PASSWORD, QUEUE,
            ROUTING_KEY, DELIVERY_MODE, CONFIRM_TIMEOUT, MANDATORY,
            ConfigKey.unsupported("rabbitmq.rabbitmq.resource.ownerId",
                    "Canal's Aliyun RabbitMQ login (with canal.aliyun.accessKey/secretKey); not supported."));

    public RabbitMqConfig {
        if (port < 1 || port > 65535) {
            throw ConfigValueException.invalid(HOST.name(), Integer.toString(port), "the port must be 1 to 65535");
        }
        if (confirmTimeoutMs < 1) {
            throw ConfigValueException.invalid(CONFIRM_TIMEOUT.name(), Long.toString(confirmTimeoutMs),
                    "must be at least 1");
        }
    }

    /** Reads the {@code rabbitmq.*} keys (blank counts as absent); fails naming the key of an invalid value. */
    public static RabbitMqConfig from(Properties properties) {
        TypedProperties p = new TypedProperties(properties);
        String hostAndPort = p.string(HOST).isEmpty() ? p.string(LEGACY_SERVERS, "") : p.string(HOST);
        String host = hostAndPort.isEmpty() ? "127.0.0.1" : hostAndPort;
        int port = DEFAULT_PORT;
        int colon = hostAndPort.lastIndexOf(':');
        if (colon >= 0) {
            host = hostAndPort.substring(0, colon);
            try {
                port = Integer.parseInt(hostAndPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw ConfigValueException.invalid(HOST.name(), hostAndPort, "expected host or host:port");
            }
        }
        return new RabbitMqConfig(host, port, orDefault(p.string(VIRTUAL_HOST), "/"), p.string(EXCHANGE),
                orDefault(p.string(USERNAME), "guest"), orDefault(p.string(PASSWORD), "guest"), p.string(QUEUE),
                p.string(ROUTING_KEY), orDefault(p.string(DELIVERY_MODE), "direct"), p.longValue(CONFIRM_TIMEOUT),
                p.bool(MANDATORY));
    }

    /** host:port, for log lines (never the password). */
    public String address() {
        return host + ":" + port + (virtualHost.equals("/") ? "" : " vhost " + virtualHost);
    }

    private static String orDefault(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }

    @Override
    public String toString() {
        return Secrets.toString(this, Set.of("password")); // never the secret itself
    }
}
