package dev.canal.connector.kafka;

import dev.canal.protocol.config.ConfigKey;
import dev.canal.protocol.config.ConfigValueException;
import dev.canal.protocol.config.Secrets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka producer settings of MQ mode ({@code kafka.*}, docs/configuration.md): every {@code kafka.X} key is
 * passed to the producer as {@code X}, over Canal's shipped defaults; the legacy {@code canal.mq.servers}-style
 * keys are copied onto their new names when the new one is absent. As in Canal, {@code acks} and
 * {@code enable.idempotence} are taken as given; {@code acks} other than {@code all} is warned about at start,
 * naming its key, because a broker failover can then lose rows whose batch was already acked
 * (docs/compatibility.md, Kafka producer settings). Where {@code acks=all} and idempotence is not switched off,
 * the producer is idempotent. As Canal forces it, one request is in flight per connection, so that a retried send
 * can never overtake a later one.
 *
 * @param producerProperties what the Kafka producer is built from
 */
public record KafkaProducerConfig(Map<String, String> producerProperties) {

    private static final Logger log = LoggerFactory.getLogger(KafkaProducerConfig.class);
    public static final String PREFIX = "kafka.";
    private static final String KERBEROS_PREFIX = "kafka.kerberos.";

    public static final ConfigKey BOOTSTRAP_SERVERS = producerSetting(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            "127.0.0.1:9092", "Kafka brokers, host:port,...");
    public static final ConfigKey ACKS = producerSetting(ProducerConfig.ACKS_CONFIG, "all",
            "Replicas that must have a batch before it counts as sent; 0 or 1 is accepted with a warning, as a broker "
                    + "failure can then lose rows.");
    public static final ConfigKey COMPRESSION_TYPE = producerSetting(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none",
            "none, gzip, snappy, lz4 or zstd.");
    public static final ConfigKey BATCH_SIZE = producerSetting(ProducerConfig.BATCH_SIZE_CONFIG, "16384",
            "Bytes the producer gathers per partition before sending.");
    public static final ConfigKey LINGER_MS = producerSetting(ProducerConfig.LINGER_MS_CONFIG, "1",
            "Milliseconds the producer waits to fill a batch.");
    public static final ConfigKey MAX_REQUEST_SIZE = producerSetting(ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
            "1048576", "Largest request, so largest message, in bytes.");
    public static final ConfigKey BUFFER_MEMORY = producerSetting(ProducerConfig.BUFFER_MEMORY_CONFIG, "33554432",
            "Bytes the producer may hold unsent.");
    public static final ConfigKey KERBEROS_ENABLE = ConfigKey.canal("kafka.kerberos.enable", "false",
            "Log in to Kafka with Kerberos (SASL_PLAINTEXT).");
    public static final ConfigKey KERBEROS_KRB5_FILE = ConfigKey.canal("kafka.kerberos.krb5.file",
            "../conf/kerberos/krb5.conf", "The krb5.conf for that.");
    public static final ConfigKey KERBEROS_JAAS_FILE = ConfigKey.canal("kafka.kerberos.jaas.file",
            "../conf/kerberos/jaas.conf", "The JAAS file for that.");

    /** Canal's shipped {@code kafka.*} values, by producer setting. */
    private static final Map<String, String> CANAL_DEFAULTS = Stream.of(BOOTSTRAP_SERVERS, COMPRESSION_TYPE,
            BATCH_SIZE, LINGER_MS, MAX_REQUEST_SIZE, BUFFER_MEMORY)
            .collect(Collectors.toMap(key -> key.name().substring(PREFIX.length()), ConfigKey::defaultValue));

    /** What Kafka accepts for {@code acks}. */
    private static final List<String> ACKS_VALUES = List.of("all", "-1", "0", "1");

    /** Legacy (≤1.1.4) keys and the producer setting each one means. */
    private static final Map<String, String> LEGACY_KEYS = Map.of(
            "canal.mq.servers", ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            "canal.mq.acks", ProducerConfig.ACKS_CONFIG,
            "canal.mq.compressionType", ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "canal.mq.retries", ProducerConfig.RETRIES_CONFIG,
            "canal.mq.batchSize", ProducerConfig.BATCH_SIZE_CONFIG,
            "canal.mq.lingerMs", ProducerConfig.LINGER_MS_CONFIG,
            "canal.mq.maxRequestSize", ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
            "canal.mq.bufferMemory", ProducerConfig.BUFFER_MEMORY_CONFIG);

    public static final List<ConfigKey> KEYS = Stream.concat(
            Stream.of(BOOTSTRAP_SERVERS, ACKS, COMPRESSION_TYPE, BATCH_SIZE, LINGER_MS, MAX_REQUEST_SIZE,
                    BUFFER_MEMORY, KERBEROS_ENABLE, KERBEROS_KRB5_FILE, KERBEROS_JAAS_FILE,
                    ConfigKey.canal("kafka.*", null,
                            "Any other Kafka producer setting, handed to the producer without the kafka. prefix.")),
            LEGACY_KEYS.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(legacy -> ConfigKey.canal(
                    legacy.getKey(), null, "Canal 1.1.4's name of kafka." + legacy.getValue()
                            + ", read when that key is absent.")))
            .toList();

    public KafkaProducerConfig {
        producerProperties = Map.copyOf(producerProperties);
    }

    /**
     * Reads the {@code kafka.*} keys (blank values count as missing) and applies the forced settings; fails
     * naming the key when a setting contradicts the delivery guarantees.
     */
    public static KafkaProducerConfig from(Properties properties) {
        Map<String, String> settings = new LinkedHashMap<>(CANAL_DEFAULTS);
        LEGACY_KEYS.forEach((legacy, name) -> {
            String value = value(properties, legacy);
            if (value != null && value(properties, PREFIX + name) == null) {
                settings.put(name, value);
            }
        });
        for (String key : properties.stringPropertyNames()) {
            String value = value(properties, key);
            if (key.startsWith(PREFIX) && !key.startsWith(KERBEROS_PREFIX) && value != null) {
                settings.put(key.substring(PREFIX.length()), value);
            }
        }
        boolean idempotent = applyDelivery(settings, keyOf(properties, ProducerConfig.ACKS_CONFIG),
                keyOf(properties, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        forceOneInFlight(settings);
        if (idempotent) {
            dropZeroRetries(settings);
        }
        settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        if (Boolean.parseBoolean(value(properties, KERBEROS_ENABLE.name()))) {
            settings.put("security.protocol", "SASL_PLAINTEXT");
            settings.put("sasl.kerberos.service.name", "kafka");
        }
        return new KafkaProducerConfig(settings);
    }

    /**
     * Canal's Kerberos switch sets two JVM-wide properties for the JAAS login; done at producer start, not
     * while reading the configuration.
     */
    public static void applyKerberosSystemProperties(Properties properties) {
        if (Boolean.parseBoolean(value(properties, KERBEROS_ENABLE.name()))) {
            String krb5 = valueOr(properties, KERBEROS_KRB5_FILE);
            String jaas = valueOr(properties, KERBEROS_JAAS_FILE);
            System.setProperty("java.security.krb5.conf", krb5);
            System.setProperty("java.security.auth.login.config", jaas);
            System.setProperty("javax.security.auth.useSubjectCredsOnly", "false");
            log.info("Kafka producer uses Kerberos: krb5 {} jaas {}", krb5, jaas);
        }
    }

    public String bootstrapServers() {
        return producerProperties.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.putAll(producerProperties);
        return p;
    }

    /**
     * Checks {@code acks} and {@code enable.idempotence} (Kafka's own values only) and settles idempotence: on
     * unless switched off or {@code acks} is not {@code all}, which Kafka's idempotent producer refuses.
     *
     * @return whether the producer is idempotent
     */
    private static boolean applyDelivery(Map<String, String> settings, String acksKey, String idempotenceKey) {
        String acks = settings.getOrDefault(ProducerConfig.ACKS_CONFIG, "all").toLowerCase(Locale.ROOT);
        if (!ACKS_VALUES.contains(acks)) {
            throw ConfigValueException.invalid(acksKey, acks, "must be one of " + ACKS_VALUES);
        }
        settings.put(ProducerConfig.ACKS_CONFIG, acks);
        String idempotence = settings.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !idempotence.equalsIgnoreCase("true") && !idempotence.equalsIgnoreCase("false")) {
            throw ConfigValueException.invalid(idempotenceKey, idempotence, "must be true or false");
        }
        boolean allReplicas = acks.equals("all") || acks.equals("-1");
        if (!allReplicas) {
            if ("true".equalsIgnoreCase(idempotence)) {
                throw ConfigValueException.invalid(idempotenceKey, idempotence, "true needs " + acksKey
                        + "=all: the idempotent Kafka producer refuses acks=" + acks);
            }
            log.warn("{}={}: a batch is acked once {}, so rows can be lost when a broker fails; set all to lose none",
                    acksKey, acks, acks.equals("0") ? "it is sent, before any broker confirmed it"
                            : "the partition leader has it, before its replicas do");
        }
        boolean idempotent = allReplicas && !"false".equalsIgnoreCase(idempotence);
        if (!idempotent && allReplicas) {
            log.info("{}=false: a send Kafka retries may be written twice (rows are still never lost)",
                    idempotenceKey);
        }
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, Boolean.toString(idempotent));
        return idempotent;
    }

    /** The key a producer setting came from: {@code kafka.X}, or the legacy key that filled it in. */
    private static String keyOf(Properties properties, String name) {
        if (value(properties, PREFIX + name) == null) {
            for (Map.Entry<String, String> legacy : LEGACY_KEYS.entrySet()) {
                if (legacy.getValue().equals(name) && value(properties, legacy.getKey()) != null) {
                    return legacy.getKey();
                }
            }
        }
        return PREFIX + name;
    }

    private static void forceOneInFlight(Map<String, String> settings) {
        String inFlight = settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        if (inFlight != null && !inFlight.equals("1")) {
            log.warn("{}{}={} replaced by 1, as Canal does: batches are sent strictly in order", PREFIX,
                    ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, inFlight);
        }
    }

    /** Canal ships {@code retries=0}, which the idempotent producer refuses; its own default retries instead. */
    private static void dropZeroRetries(Map<String, String> settings) {
        String retries = settings.get(ProducerConfig.RETRIES_CONFIG);
        if (retries != null && retries.equals("0")) {
            settings.remove(ProducerConfig.RETRIES_CONFIG);
            log.warn("{}{}=0 ignored: the idempotent producer retries until delivery.timeout.ms; a batch that still"
                    + " fails is rolled back and sent again", PREFIX, ProducerConfig.RETRIES_CONFIG);
        }
    }

    private static ConfigKey producerSetting(String setting, String defaultValue, String meaning) {
        return ConfigKey.canal(PREFIX + setting, defaultValue, meaning);
    }

    private static String value(Properties properties, String key) {
        String value = properties.getProperty(key);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String valueOr(Properties properties, ConfigKey key) {
        String value = value(properties, key.name());
        return value == null ? key.defaultValue() : value;
    }

    @Override
    public String toString() {
        // sasl.jaas.config and the key store passwords carry secrets
        return "KafkaProducerConfig" + Secrets.toString(producerProperties);
    }
}
