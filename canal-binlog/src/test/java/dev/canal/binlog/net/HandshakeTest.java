package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HandshakeTest {

    private static byte[] handshake(String version, String part2, String plugin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(10);
        out.writeBytes((version + "\0").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(new byte[] {7, 0, 0, 0});
        out.writeBytes("abcdefgh".getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xF7}); // lower capabilities, SSL among them
        out.write(255);
        out.writeBytes(new byte[] {2, 0});
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xDF}); // upper capabilities, PLUGIN_AUTH among them
        out.write(21);
        out.writeBytes(new byte[10]);
        out.writeBytes((part2 + "\0").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes((plugin + "\0").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    @Test
    void parsesMysql8Greeting() {
        Handshake h = Handshake.parse(handshake("9.7.4-2", "ijklmnopqrst", "caching_sha2_password"));
        assertThat(h.serverVersion()).isEqualTo("9.7.4-2");
        assertThat(h.connectionId()).isEqualTo(7);
        assertThat(new String(h.scramble(), StandardCharsets.US_ASCII)).isEqualTo("abcdefghijklmnopqrst");
        assertThat(h.authPluginName()).isEqualTo("caching_sha2_password");
        assertThat(h.has(CapabilityFlags.SSL)).isFalse(); // 0xF7 lacks bit 0x08 of the high byte
        assertThat(h.has(CapabilityFlags.PLUGIN_AUTH)).isTrue();
        assertThat(h.has(CapabilityFlags.PROTOCOL_41)).isTrue();
        assertThat(h.characterSet()).isEqualTo(255);
    }

    @Test
    void parsesMariadbGreetingAndItsVersionPrefix() {
        Handshake h = Handshake.parse(handshake("5.5.5-10.11.19-MariaDB-0+deb12u1", "ijklmnopqrst", "mysql_native_password"));
        assertThat(h.authPluginName()).isEqualTo("mysql_native_password");
        ServerVersion v = ServerVersion.parse(h.serverVersion());
        assertThat(v.isMariaDb()).isTrue();
        assertThat(v.major()).isEqualTo(10);
        assertThat(v.minor()).isEqualTo(11);
        assertThat(v.patch()).isEqualTo(19);
        assertThat(v.binlogStatusQuery()).isEqualTo("SHOW MASTER STATUS");
    }

    @Test
    void mysqlFrom84UsesShowBinaryLogStatus() {
        assertThat(ServerVersion.parse("8.0.36").binlogStatusQuery()).isEqualTo("SHOW MASTER STATUS");
        assertThat(ServerVersion.parse("8.4.0").binlogStatusQuery()).isEqualTo("SHOW BINARY LOG STATUS");
        assertThat(ServerVersion.parse("9.7.4-2").binlogStatusQuery()).isEqualTo("SHOW BINARY LOG STATUS");
        assertThat(ServerVersion.parse("9.7.4-2").atLeast(9, 7, 5)).isFalse();
    }
}
