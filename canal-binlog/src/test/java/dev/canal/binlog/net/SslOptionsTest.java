package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.testsupport.TestProperties;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SslOptionsTest {

    @Test
    void absentKeysMeanDisabledWithDefaultTlsVersions() {
        SslOptions ssl = SslOptions.fromProperties(TestProperties.of(), "canal.instance.master.");
        assertThat(ssl.mode()).isEqualTo(SslMode.DISABLED);
        assertThat(ssl.tlsVersions()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(ssl.trustStore()).isNull();
    }

    @Test
    void readsModeVersionsAndStoresUnderTheGivenPrefix() {
        SslOptions ssl = SslOptions.fromProperties(TestProperties.of(
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
        assertThatThrownBy(() -> SslOptions.fromProperties(TestProperties.of("p.sslMode", "SOMETIMES"), "p."))
                .hasMessageContaining("SOMETIMES").hasMessageContaining("VERIFY_IDENTITY");
        assertThatThrownBy(() -> SslOptions.fromProperties(TestProperties.of("p.tlsVersions", "SSLv3"), "p."))
                .hasMessageContaining("SSLv3");
        assertThatThrownBy(() -> SslOptions.fromProperties(TestProperties.of("p.clientCertificateKeyStorePassword", "x"), "p."))
                .hasMessageContaining("p.clientCertificateKeyStoreUrl");
    }

    @Test
    void networkKeysTakeCanalDefaults() {
        NetworkOptions defaults = NetworkOptions.fromProperties(TestProperties.of());
        assertThat(defaults.receiveBufferSize()).isEqualTo(16384);
        assertThat(defaults.sendBufferSize()).isEqualTo(16384);
        assertThat(defaults.soTimeout()).isEqualTo(Duration.ofSeconds(30));
        NetworkOptions set = NetworkOptions.fromProperties(TestProperties.of("canal.instance.network.soTimeout", "5",
                "canal.instance.network.receiveBufferSize", "65536"));
        assertThat(set.soTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(set.receiveBufferSize()).isEqualTo(65536);
        assertThatThrownBy(() -> NetworkOptions.fromProperties(TestProperties.of("canal.instance.network.sendBufferSize", "big")))
                .hasMessageContaining("canal.instance.network.sendBufferSize");
    }
}
