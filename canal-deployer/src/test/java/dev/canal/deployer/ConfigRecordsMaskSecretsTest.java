package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.canal.binlog.net.ConnectionOptions;
import dev.canal.connector.kafka.KafkaProducerConfig;
import dev.canal.connector.pulsar.PulsarConfig;
import dev.canal.connector.rabbitmq.RabbitMqConfig;
import dev.canal.deployer.admin.AdminConfig;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.server.ServerConfig;
import dev.canal.server.netty.AuthScramble;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Every configuration record that holds a password, token or hash prints without it. */
class ConfigRecordsMaskSecretsTest {

    private static final String SECRET = "Xyzzy-4711-secret";

    @Test
    void noConfigurationRecordPrintsItsSecret() {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", "127.0.0.1:3306");
        p.setProperty("canal.instance.dbPassword", SECRET);
        p.setProperty("canal.instance.tsdb.dbPassword", SECRET);
        p.setProperty("canal.instance.tsdb.url", "jdbc:mysql://127.0.0.1:3306/tsdb?password=" + SECRET);
        p.setProperty("canal.user", "canal");
        p.setProperty("canal.passwd", AuthScramble.passwordHash(SECRET));
        p.setProperty("canal.admin.manager", "127.0.0.1:8089");
        p.setProperty("canal.admin.passwd", AuthScramble.passwordHash(SECRET));
        p.setProperty("rabbitmq.password", SECRET);
        p.setProperty("pulsarmq.serverUrl", "pulsar://127.0.0.1:6650");
        p.setProperty("pulsarmq.roleToken", SECRET);
        p.setProperty("kafka.bootstrap.servers", "127.0.0.1:9092");
        p.setProperty("kafka.sasl.jaas.config", "PlainLoginModule required password=\"" + SECRET + "\";");
        p.setProperty("kafka.ssl.truststore.password", SECRET);

        List<Object> records = List.of(MysqlParserConfig.fromProperties(p), ServerConfig.fromProperties(p),
                AdminConfig.fromProperties(p), RabbitMqConfig.from(p), PulsarConfig.from(p),
                KafkaProducerConfig.from(p), ConnectionOptions.of("127.0.0.1", 3306, "canal", SECRET));

        String hash = AuthScramble.passwordHash(SECRET);
        assertThat(records).allSatisfy(record -> assertThat(record.toString()).doesNotContain(SECRET)
                .doesNotContainIgnoringCase(hash));
        assertThat(records.get(0).toString()).contains("password=***");
    }
}
