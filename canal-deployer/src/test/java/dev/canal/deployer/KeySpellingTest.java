package dev.canal.deployer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeySpellingTest {

    private static final List<String> KNOWN = List.of("canal.port", "canal.ip", "canal.instance.filter.regex",
            "canal.instance.filter.black.regex", "canal.user", "canal.passwd");

    @Test
    void swappedLettersAreOneEdit() {
        assertThat(KeySpelling.distance("canal.prot", "canal.port")).isEqualTo(1);
        assertThat(KeySpelling.closest("canal.prot", KNOWN)).contains("canal.port");
        assertThat(KeySpelling.closest("canal.instnace.filter.regex", KNOWN)).contains("canal.instance.filter.regex");
    }

    @Test
    void aMissingOrExtraLetterIsSuggested() {
        assertThat(KeySpelling.closest("canal.passwd.", KNOWN)).contains("canal.passwd");
        assertThat(KeySpelling.closest("canal.instance.filter.regx", KNOWN)).contains("canal.instance.filter.regex");
    }

    @Test
    void aKeyFarFromEveryKnownOneHasNoSuggestion() {
        assertThat(KeySpelling.closest("canal.something.else", KNOWN)).isEmpty();
        assertThat(KeySpelling.closest("my.app.key", KNOWN)).isEmpty();
    }

    @Test
    void aShortKeyIsAllowedFewerEdits() {
        // one substitution away; "cnl.ipp" is three edits from canal.ip, more than a 7-character key is allowed
        assertThat(KeySpelling.closest("canal.id", KNOWN)).contains("canal.ip");
        assertThat(KeySpelling.closest("cnl.ipp", KNOWN)).isEmpty();
    }

    @Test
    void twoEquallyCloseKeysGiveNoSuggestion() {
        assertThat(KeySpelling.closest("canal.usr", List.of("canal.user", "canal.usa"))).isEmpty();
    }
}
