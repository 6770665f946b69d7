package dev.canal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UntrustedTextTest {

    @Test
    void plainTextIsQuotedAsItIs() {
        assertThat(UntrustedText.quote("canal user-1 \u00e9")).isEqualTo("'canal user-1 \u00e9'");
    }

    @Test
    void controlCharactersAndQuotesAreEscaped() {
        assertThat(UntrustedText.quote("a\r\nb'c\u001b[31m\u202e"))
                .isEqualTo("'a\\u000d\\u000ab\\u0027c\\u001b[31m\\u202e'");
    }

    @Test
    void aBackslashStaysUnlessItWouldReadAsAnEscape() {
        assertThat(UntrustedText.quote("db\\..*")).isEqualTo("'db\\..*'");
        assertThat(UntrustedText.quote("x\\u000a")).isEqualTo("'x\\u005cu000a'");
    }

    @Test
    void longTextIsCutAndItsLengthSaid() {
        String quoted = UntrustedText.quote("u".repeat(10_000));

        assertThat(quoted).startsWith("'" + "u".repeat(UntrustedText.MAX_SHOWN) + "'")
                .endsWith("... (10000 characters)")
                .hasSizeLessThan(UntrustedText.MAX_SHOWN + 40);
    }

    @Test
    void nullIsShownAsNull() {
        assertThat(UntrustedText.quote(null)).isEqualTo("null");
    }
}
