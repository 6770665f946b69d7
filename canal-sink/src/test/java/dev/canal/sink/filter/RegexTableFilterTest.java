package dev.canal.sink.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RegexTableFilterTest {

    /** pattern (as the regex text, i.e. after .properties unescaping), name, white-list match. */
    static Stream<Arguments> whiteListCases() {
        return Stream.of(
                Arguments.of(".*\\..*", "canal.test1", true),
                Arguments.of(".*\\..*", "any_schema.any_table", true),
                Arguments.of(".*\\..*", "nodot", false),
                Arguments.of("canal\\..*", "canal.test1", true),
                Arguments.of("canal\\..*", "canal2.test1", false),
                Arguments.of("canal\\..*", "xcanal.test1", false),
                Arguments.of("canal.test1", "canal.test1", true),
                // an unescaped dot matches any character, as in Canal
                Arguments.of("canal.test1", "canalxtest1", true),
                Arguments.of("canal.test1", "canal.test10", false),
                Arguments.of("canal.test1", "my_canal.test1", false),
                Arguments.of("canal\\..*,mysql.test1,mysql.test2", "mysql.test2", true),
                Arguments.of("canal\\..*,mysql.test1,mysql.test2", "canal.anything", true),
                Arguments.of("canal\\..*,mysql.test1,mysql.test2", "mysql.test3", false),
                // commas inside {} do not split
                Arguments.of("db\\.t_\\d{1,2}", "db.t_7", true),
                Arguments.of("db\\.t_\\d{1,2}", "db.t_42", true),
                Arguments.of("db\\.t_\\d{1,2}", "db.t_123", false),
                Arguments.of("db\\.t_\\d{1,2},other\\.x", "other.x", true),
                // commas inside [] and () do not split either
                Arguments.of("db\\.[a,b]", "db.,", true),
                Arguments.of("db\\.(a,b|c)", "db.a,b", true),
                Arguments.of("db\\.(a,b|c)", "db.c", true),
                // an escaped comma does not split
                Arguments.of("db\\.a\\,b", "db.a,b", true),
                // case: the name is lower-cased and matching ignores case
                Arguments.of("Canal\\.Test1", "CANAL.TEST1", true),
                Arguments.of("canal\\.test1", "Canal.Test1", true),
                // items are not trimmed: a space after the comma is part of the regex
                Arguments.of("a\\.b, c\\.d", "c.d", false),
                Arguments.of("a\\.b, c\\.d", " c.d", true),
                // empty items are dropped
                Arguments.of(",,a\\.b,,", "a.b", true),
                Arguments.of(",,a\\.b,,", "", true),
                // alternation inside an item stays anchored as a whole
                Arguments.of("a\\.b|c\\.d", "c.d", true),
                Arguments.of("a\\.b|c\\.d", "a.bc.d", false),
                // a prefix item must not shadow a longer one
                Arguments.of("foo\\.t,foo\\.tt", "foo.tt", true),
                // SINGLELINE: the dot also matches a line break
                Arguments.of("a\\..*", "a.x\ny", true),
                // empty pattern or empty name: a white list lets everything through
                Arguments.of("", "canal.test1", true),
                Arguments.of(",,", "canal.test1", true),
                Arguments.of("canal\\..*", "", true),
                Arguments.of("canal\\..*", null, true));
    }

    @ParameterizedTest(name = "[{index}] white \"{0}\" on \"{1}\" -> {2}")
    @MethodSource("whiteListCases")
    void whiteListMatchesAsCanalDoes(String pattern, String name, boolean expected) {
        assertThat(RegexTableFilter.whiteList(pattern).matches(name)).isEqualTo(expected);
    }

    @Test
    void eachTablesAnswerIsFoundOnceAndKept() {
        RegexTableFilter filter = RegexTableFilter.whiteList("(a+)+b\\..*,shop\\..*");

        for (int row = 0; row < 1000; row++) {
            assertThat(filter.matches("shop.orders")).isTrue();
            assertThat(filter.matches("aaaaaaaaaaaaaaaa.x")).isFalse();
        }

        assertThat(filter.cachedNames()).isEqualTo(2);
        assertThat(filter.matches("SHOP.Orders")).as("the same answer as the lower-cased name").isTrue();
    }

    @Test
    void anEmptyBlackListBlocksNothing() {
        assertThat(RegexTableFilter.blackList("").matches("mysql.slave_master_info")).isFalse();
        assertThat(RegexTableFilter.blackList("mysql\\.slave_.*").matches("")).isFalse();
        assertThat(RegexTableFilter.blackList("mysql\\.slave_.*").matches("mysql.slave_relay_log_info")).isTrue();
    }

    @Test
    void itemsAreSplitOutsideBracketsAndSortedLongestFirst() {
        RegexTableFilter filter = RegexTableFilter.whiteList("a\\.b,db\\.t_\\d{1,2},x\\.[,],y\\.(p,q),\\,z");

        assertThat(filter.items()).containsExactly("db\\.t_\\d{1,2}", "y\\.(p,q)", "x\\.[,]", "a\\.b", "\\,z");
        assertThat(filter.regex()).startsWith("^db\\.t_\\d{1,2}$|^y\\.(p,q)$|");
    }

    @Test
    void anInvalidRegexIsRejected() {
        assertThatThrownBy(() -> RegexTableFilter.whiteList("canal\\.(test")).isInstanceOf(PatternSyntaxException.class);
    }

    @Test
    void tableFilterKeepsWhatTheWhiteListMatchesAndTheBlackListDoesNot() {
        TableFilter filter = TableFilter.of(".*\\..*", "mysql\\.slave_.*,canal\\.secret");

        assertThat(filter.accepts("canal", "test1")).isTrue();
        assertThat(filter.accepts("mysql", "slave_master_info")).isFalse();
        assertThat(filter.accepts("CANAL", "Secret")).isFalse();
        assertThat(filter.accepts("mysql", "user")).isTrue();
    }

    @Test
    void aClientFilterReplacesOnlyTheWhiteList() {
        TableFilter filter = TableFilter.of(".*\\..*", "canal\\.secret").withWhiteList("canal\\..*");

        assertThat(filter.accepts("canal", "test1")).isTrue();
        assertThat(filter.accepts("other", "test1")).isFalse();
        assertThat(filter.accepts("canal", "secret")).isFalse();
    }
}
