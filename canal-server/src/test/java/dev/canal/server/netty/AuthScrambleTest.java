package dev.canal.server.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AuthScrambleTest {

    private static final byte[] SEED = {1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void scrambleMatchesTheWorkedExampleOfTheCompatSheet() {
        assertThat(AuthScramble.scramble("canal", SEED)).isEqualTo("7de44690d8e53782cb61804a2455c284a3bbfb06");
    }

    @Test
    void passwordHashIsDoubleSha1AsCanalDocumentsIt() {
        assertThat(AuthScramble.passwordHash("canal")).isEqualTo("E3619321C1A937C46A0D8BD1DAC39F93B27D4458");
        assertThat(AuthScramble.passwordHash("123456")).isEqualTo("6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9");
        assertThat(AuthScramble.passwordHash("admin")).isEqualTo("4ACFE3202A5FF5CF467898FC58AAB1D615029441");
    }

    @Test
    void serverAcceptsTheWorkedExampleTokenForTheStoredHash() {
        byte[] stored = hex("E3619321C1A937C46A0D8BD1DAC39F93B27D4458");

        assertThat(AuthScramble.matches(utf8("7de44690d8e53782cb61804a2455c284a3bbfb06"), SEED, stored)).isTrue();
        assertThat(AuthScramble.matches(utf8("7DE44690D8E53782CB61804A2455C284A3BBFB06"), SEED, stored)).isTrue();
    }

    @Test
    void serverRejectsAWrongPasswordAnotherSeedAndMalformedTokens() {
        byte[] stored = hex("E3619321C1A937C46A0D8BD1DAC39F93B27D4458");
        byte[] otherSeed = {8, 7, 6, 5, 4, 3, 2, 1};

        assertThat(AuthScramble.matches(utf8(AuthScramble.scramble("canal2", SEED)), SEED, stored)).isFalse();
        assertThat(AuthScramble.matches(utf8(AuthScramble.scramble("canal", SEED)), otherSeed, stored)).isFalse();
        assertThat(AuthScramble.matches(utf8("not hex at all"), SEED, stored)).isFalse();
        assertThat(AuthScramble.matches(utf8("7de4"), SEED, stored)).isFalse();
        assertThat(AuthScramble.matches(new byte[0], SEED, stored)).isFalse();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hex(String text) {
        return java.util.HexFormat.of().parseHex(text.toLowerCase());
    }
}
