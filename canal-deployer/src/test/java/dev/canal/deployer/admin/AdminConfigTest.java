package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AdminConfigTest {

    private static final String HASH = "4ACFE3202A5FF5CF467898FC58AAB1D615029441";

    private static AdminConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return AdminConfig.fromProperties(p);
    }

    @Test
    void withoutKeysNothingIsManagedAndNoPortOpens() {
        AdminConfig config = config();

        assertThat(config.managed()).isFalse();
        assertThat(config.opensPort()).isFalse();
        assertThat(config.credentials().user()).isEqualTo("admin");
        assertThat(config.registrationPort()).isEqualTo(11110);
    }

    @Test
    void thePortOpensOnlyWithAPassword() {
        assertThat(config("canal.admin.port", "11110").opensPort()).isFalse();
        assertThat(config("canal.admin.port", "11110", "canal.admin.passwd", HASH).opensPort()).isTrue();
        assertThat(config("canal.admin.port", "12000").registrationPort()).isEqualTo(12000);
    }

    @Test
    void managerModeReadsItsRegistration() {
        AdminConfig config = config("canal.admin.manager", " 10.0.0.5:8089 ", "canal.admin.passwd", HASH,
                "canal.admin.register.auto", "true", "canal.admin.register.cluster", "blue",
                "canal.admin.register.name", "node-1");

        assertThat(config.managed()).isTrue();
        assertThat(config.manager()).isEqualTo("10.0.0.5:8089");
        assertThat(config.registerAuto()).isTrue();
        assertThat(config.registerCluster()).isEqualTo("blue");
        assertThat(config.registerName()).isEqualTo("node-1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "canal.admin.manager|127.0.0.1:8089|canal.admin.passwd", // a manager without password
        "canal.admin.manager|127.0.0.1|canal.admin.manager",
        "canal.admin.manager|127.0.0.1:http|canal.admin.manager",
        "canal.admin.port|70000|canal.admin.port",
        "canal.admin.port|admin|canal.admin.port",
        "canal.admin.passwd|admin|canal.admin.passwd",
        "canal.admin.register.auto|yes|canal.admin.register.auto",
    })
    void invalidValuesAreRefusedNamingTheKey(String key, String value, String named) {
        assertThatThrownBy(() -> config(key, value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(named);
    }
}
