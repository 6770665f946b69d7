package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.binlog.net.KeyStoreSource;
import dev.canal.binlog.net.NetworkOptions;
import dev.canal.binlog.net.SslMode;
import dev.canal.binlog.net.SslOptions;
import dev.canal.protocol.config.TypedProperties;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SourceConnectionKeysTest {

    private static TypedProperties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new TypedProperties(p);
    }

    @Test
    void anUnsetHeartbeatPeriodIsCanalsFifteenSecondsOrHalfAShorterSocketTimeout() {
        assertThat(SourceConnectionKeys.heartbeatPeriod(props())).isEqualTo(Duration.ofSeconds(15));
        assertThat(SourceConnectionKeys.heartbeatPeriod(props("canal.instance.network.soTimeout", "5")))
                .isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void aHeartbeatPeriodSetAtOrAboveTheSocketTimeoutIsRefusedNamingTheKey() {
        assertThat(SourceConnectionKeys.heartbeatPeriod(props("canal.instance.network.heartbeatPeriod", "4",
                "canal.instance.network.soTimeout", "5"))).isEqualTo(Duration.ofSeconds(4));
        assertThatThrownBy(() -> SourceConnectionKeys.heartbeatPeriod(props(
                "canal.instance.network.heartbeatPeriod", "5", "canal.instance.network.soTimeout", "5")))
                .hasMessageContaining("canal.instance.network.heartbeatPeriod")
                .hasMessageContaining("below canal.instance.network.soTimeout");
    }

    @Test
    void absentKeysMeanNoTlsWithTheDefaultVersions() {
        SslOptions ssl = SourceConnectionKeys.ssl(props());
        assertThat(ssl.mode()).isEqualTo(SslMode.DISABLED);
        assertThat(ssl.tlsVersions()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(ssl.trustStore()).isNull();
        assertThat(ssl.clientKeyStore()).isNull();
    }

    @Test
    void readsModeVersionsAndStores() {
        SslOptions ssl = SourceConnectionKeys.ssl(props(
                "canal.instance.master.sslMode", " verify_ca ",
                "canal.instance.master.tlsVersions", "TLSv1.3",
                "canal.instance.master.trustCertificateKeyStoreUrl", "file:/etc/canal/trust.p12",
                "canal.instance.master.trustCertificateKeyStoreType", "PKCS12",
                "canal.instance.master.trustCertificateKeyStorePassword", "changeit",
                "canal.instance.master.clientCertificateKeyStoreUrl", "file:/etc/canal/client.jks"));
        assertThat(ssl.mode()).isEqualTo(SslMode.VERIFY_CA);
        assertThat(ssl.tlsVersions()).isEqualTo(List.of("TLSv1.3"));
        assertThat(ssl.trustStore()).isEqualTo(new KeyStoreSource("PKCS12", "file:/etc/canal/trust.p12", "changeit"));
        assertThat(ssl.clientKeyStore()).isEqualTo(new KeyStoreSource("JKS", "file:/etc/canal/client.jks", null));
    }

    @Test
    void aStorePasswordOrTypeWithoutItsUrlIsRejectedNamingTheKeys() {
        assertThatThrownBy(() -> SourceConnectionKeys.ssl(props(
                "canal.instance.master.clientCertificateKeyStorePassword", "x")))
                .hasMessageContaining("canal.instance.master.clientCertificateKeyStoreUrl")
                .hasMessageContaining("canal.instance.master.clientCertificateKeyStorePassword");
        assertThatThrownBy(() -> SourceConnectionKeys.ssl(props(
                "canal.instance.master.trustCertificateKeyStoreType", "PKCS12")))
                .hasMessageContaining("canal.instance.master.trustCertificateKeyStoreUrl");
    }

    @Test
    void networkKeysTakeCanalsDefaultsAndMustBePositive() {
        NetworkOptions defaults = SourceConnectionKeys.network(props());
        assertThat(defaults.receiveBufferSize()).isEqualTo(16384);
        assertThat(defaults.sendBufferSize()).isEqualTo(16384);
        assertThat(defaults.soTimeout()).isEqualTo(Duration.ofSeconds(30));
        NetworkOptions set = SourceConnectionKeys.network(props("canal.instance.network.soTimeout", "5",
                "canal.instance.network.receiveBufferSize", "65536"));
        assertThat(set.soTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(set.receiveBufferSize()).isEqualTo(65536);
        assertThatThrownBy(() -> SourceConnectionKeys.network(props("canal.instance.network.sendBufferSize", "big")))
                .hasMessageContaining("canal.instance.network.sendBufferSize");
        assertThatThrownBy(() -> SourceConnectionKeys.network(props("canal.instance.network.sendBufferSize", "0")))
                .hasMessageContaining("canal.instance.network.sendBufferSize");
    }
}
