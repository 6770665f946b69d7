package dev.canal.protocol.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecretsTest {

    private record Account(String user, String password, int port) {
    }

    @Test
    void aRecordPrintsAsJavaPrintsItWithItsSecretComponentsMasked() {
        Account account = new Account("canal", "Tr0ub4dor", 3306);

        assertThat(Secrets.toString(account, Set.of("password"))).isEqualTo("Account[user=canal, password=***, port=3306]");
        assertThat(Secrets.toString(new Account("canal", "", 1), Set.of("password"))).contains("password=,");
    }

    @Test
    void settingsWhoseNamesSpeakOfSecretsAreMasked() {
        String text = Secrets.toString(Map.of("bootstrap.servers", "k:9092",
                "sasl.jaas.config", "PlainLoginModule required password=\"Tr0ub4dor\";",
                "ssl.truststore.password", "Tr0ub4dor", "acks", "all"));

        assertThat(text).doesNotContain("Tr0ub4dor").contains("bootstrap.servers=k:9092", "sasl.jaas.config=***");
    }
}
