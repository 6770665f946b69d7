package dev.canal.parse.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SourceConnectorTest {

    private static Properties instance() {
        Properties p = new Properties();
        p.setProperty("canal.instance.master.address", "db.example:3307");
        p.setProperty("canal.instance.dbUsername", "canal");
        p.setProperty("canal.instance.dbPassword", "secret");
        return p;
    }

    private static Properties jdbc(Properties instance) {
        return SourceConnector.of(MysqlParserConfig.fromProperties(instance)).jdbcProperties();
    }

    @Test
    void withoutTlsKeysTheMetadataConnectionIsPlainAsTheReplicationOne() {
        Properties jdbc = jdbc(instance());

        assertThat(jdbc).containsEntry("sslMode", "DISABLED").containsEntry("user", "canal")
                .containsEntry("password", "secret").doesNotContainKey("trustCertificateKeyStoreUrl");
    }

    @Test
    void theMetadataConnectionTakesTheSourcesTlsModeVersionsAndKeyStores() {
        Properties p = instance();
        p.setProperty("canal.instance.master.sslMode", "VERIFY_CA");
        p.setProperty("canal.instance.master.tlsVersions", "TLSv1.3");
        p.setProperty("canal.instance.master.trustCertificateKeyStoreUrl", "conf/trust.p12");
        p.setProperty("canal.instance.master.trustCertificateKeyStoreType", "PKCS12");
        p.setProperty("canal.instance.master.trustCertificateKeyStorePassword", "changeit");
        p.setProperty("canal.instance.master.clientCertificateKeyStoreUrl", "file:/etc/canal/client.jks");
        p.setProperty("canal.instance.master.clientCertificateKeyStorePassword", "pw");

        Properties jdbc = jdbc(p);

        assertThat(jdbc).containsEntry("sslMode", "VERIFY_CA").containsEntry("tlsVersions", "TLSv1.3")
                .containsEntry("trustCertificateKeyStoreType", "PKCS12")
                .containsEntry("trustCertificateKeyStoreUrl", Path.of("conf/trust.p12").toAbsolutePath().toUri().toString())
                .containsEntry("trustCertificateKeyStorePassword", "changeit")
                .containsEntry("clientCertificateKeyStoreType", "JKS")
                .containsEntry("clientCertificateKeyStoreUrl", "file:/etc/canal/client.jks")
                .containsEntry("clientCertificateKeyStorePassword", "pw");
    }

    @Test
    void bothKindsOfConnectionGoToTheConfiguredAddress() {
        SourceConnector connector = SourceConnector.of(MysqlParserConfig.fromProperties(instance()));

        assertThat(connector.jdbcUrl()).isEqualTo("jdbc:mysql://db.example:3307/");
        assertThat(connector.options().host()).isEqualTo("db.example");
        assertThat(connector.options().port()).isEqualTo(3307);
    }
}
