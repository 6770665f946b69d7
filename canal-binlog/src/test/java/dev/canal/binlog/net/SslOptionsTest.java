package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SslOptionsTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void absentKeysMeanDisabledWithDefaultTlsVersions() {
        SslOptions ssl = SslOptions.fromProperties(props(), "canal.instance.master.");
        assertThat(ssl.mode()).isEqualTo(SslMode.DISABLED);
        assertThat(ssl.tlsVersions()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(ssl.trustStore()).isNull();
    }

    @Test
    void readsModeVersionsAndStoresUnderTheGivenPrefix() {
        SslOptions ssl = SslOptions.fromProperties(props(
                "canal.instance.standby.sslMode", " verify_ca ",
                "canal.instance.standby.tlsVersions", "TLSv1.3",
                "canal.instance.standby.trustCertificateKeyStoreUrl", "file:/etc/canal/trust.p12",
                "canal.instance.standby.trustCertificateKeyStoreType", "PKCS12",
                "canal.instance.standby.trustCertificateKeyStorePassword", "changeit",
                "canal.instance.master.sslMode", "REQUIRED"), "canal.instance.standby.");
        assertThat(ssl.mode()).isEqualTo(SslMode.VERIFY_CA);
        assertThat(ssl.tlsVersions()).isEqualTo(List.of("TLSv1.3"));
        assertThat(ssl.trustStore()).isEqualTo(new KeyStoreSource("PKCS12", "file:/etc/canal/trust.p12", "changeit"));
        assertThat(ssl.trustStore().toString()).doesNotContain("changeit");
        assertThat(ssl.clientKeyStore()).isNull();
    }

    @Test
    void invalidValuesAreRejectedNamingTheKeyOrValue() {
        assertThatThrownBy(() -> SslOptions.fromProperties(props("p.sslMode", "SOMETIMES"), "p."))
                .hasMessageContaining("SOMETIMES").hasMessageContaining("VERIFY_IDENTITY");
        assertThatThrownBy(() -> SslOptions.fromProperties(props("p.tlsVersions", "SSLv3"), "p."))
                .hasMessageContaining("SSLv3");
        assertThatThrownBy(() -> SslOptions.fromProperties(props("p.clientCertificateKeyStorePassword", "x"), "p."))
                .hasMessageContaining("p.clientCertificateKeyStoreUrl");
    }

    @Test
    void networkKeysTakeCanalDefaults() {
        NetworkOptions defaults = NetworkOptions.fromProperties(props());
        assertThat(defaults.receiveBufferSize()).isEqualTo(16384);
        assertThat(defaults.sendBufferSize()).isEqualTo(16384);
        assertThat(defaults.soTimeout()).isEqualTo(Duration.ofSeconds(30));
        NetworkOptions set = NetworkOptions.fromProperties(props("canal.instance.network.soTimeout", "5",
                "canal.instance.network.receiveBufferSize", "65536"));
        assertThat(set.soTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(set.receiveBufferSize()).isEqualTo(65536);
        assertThatThrownBy(() -> NetworkOptions.fromProperties(props("canal.instance.network.sendBufferSize", "big")))
                .hasMessageContaining("canal.instance.network.sendBufferSize");
    }
}
