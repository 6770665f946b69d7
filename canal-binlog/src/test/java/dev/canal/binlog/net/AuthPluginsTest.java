package dev.canal.binlog.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;

class AuthPluginsTest {

    /** Scramble 0x01..0x14 and password "secret"; expected values computed independently with Python's hashlib. */
    private static final byte[] SCRAMBLE = new byte[20];

    static {
        for (int i = 0; i < 20; i++) {
            SCRAMBLE[i] = (byte) (i + 1);
        }
    }

    @Test
    void nativePasswordMatchesKnownVector() {
        assertThat(HexFormat.of().formatHex(AuthPlugins.nativePassword("secret", SCRAMBLE)))
                .isEqualTo("b32bb3a583e1340c0a1108d58b1be49781ad8c2f");
    }

    @Test
    void cachingSha2MatchesKnownVector() {
        assertThat(HexFormat.of().formatHex(AuthPlugins.cachingSha2("secret", SCRAMBLE)))
                .isEqualTo("746ebe205d56a0707acb3e796e834e0dd7b1d61743b26bd5202c7a623230c7c9");
    }

    @Test
    void emptyPasswordsSendNothing() {
        assertThat(AuthPlugins.nativePassword("", SCRAMBLE)).isEmpty();
        assertThat(AuthPlugins.cachingSha2("", SCRAMBLE)).isEmpty();
        assertThat(AuthPlugins.cleartext("")).containsExactly(0);
    }

    @Test
    void rsaPathEncryptsPasswordXorScrambleWithOaep() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";

        byte[] sent = AuthPlugins.rsaEncryptedPassword("a-password-longer-than-the-scramble", SCRAMBLE, pem);

        Cipher cipher = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
        cipher.init(Cipher.DECRYPT_MODE, pair.getPrivate());
        byte[] plain = cipher.doFinal(sent);
        for (int i = 0; i < plain.length; i++) {
            plain[i] ^= SCRAMBLE[i % SCRAMBLE.length];
        }
        assertThat(new String(plain, StandardCharsets.UTF_8)).isEqualTo("a-password-longer-than-the-scramble\0");
    }
}
