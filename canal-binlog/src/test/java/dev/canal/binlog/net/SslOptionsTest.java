package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SslOptionsTest {

    @Test
    void noTlsVersionsMeansTheDefaultOnes() {
        assertThat(new SslOptions(SslMode.REQUIRED, List.of(), null, null, false).tlsVersions())
                .containsExactly("TLSv1.2", "TLSv1.3");
    }

    @Test
    void unknownModesAndTlsVersionsAreRejectedNamingTheValue() {
        assertThatThrownBy(() -> SslMode.parse("SOMETIMES"))
                .hasMessageContaining("SOMETIMES").hasMessageContaining("VERIFY_IDENTITY");
        assertThat(SslMode.parse(" verify_ca ")).isEqualTo(SslMode.VERIFY_CA);
        assertThatThrownBy(() -> new SslOptions(SslMode.REQUIRED, List.of("SSLv3"), null, null, false))
                .hasMessageContaining("SSLv3");
    }

    @Test
    void aKeyStoreNeverShowsItsPassword() {
        assertThat(new KeyStoreSource("PKCS12", "file:/etc/canal/trust.p12", "changeit").toString())
                .doesNotContain("changeit");
    }
}
