package dev.canal.sink.filter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ColumnFilterTest {

    @Test
    void aWhiteListKeepsOnlyItsColumnsCaseInsensitively() {
        ColumnFilter filter = ColumnFilter.parse("test.t1:id/Name,test.t2:a", "");

        ColumnFilter.Selection t1 = filter.forTable("TEST", "t1");
        assertThat(t1.keeps("ID")).isTrue();
        assertThat(t1.keeps("name")).isTrue();
        assertThat(t1.keeps("age")).isFalse();
        assertThat(filter.forTable("test", "t2").keeps("b")).isFalse();
    }

    @Test
    void aBlackListDropsItsColumns() {
        ColumnFilter.Selection t1 = ColumnFilter.parse("", "test.t1:secret").forTable("test", "t1");

        assertThat(t1.keeps("secret")).isFalse();
        assertThat(t1.keeps("id")).isTrue();
    }

    @Test
    void theWhiteListWinsWhenATableHasBoth() {
        ColumnFilter.Selection t1 = ColumnFilter.parse("test.t1:id", "test.t1:id").forTable("test", "t1");

        assertThat(t1.keeps("id")).isTrue();
        assertThat(t1.keeps("other")).isFalse();
    }

    @Test
    void tablesAreNamedExactlyNotByRegex() {
        ColumnFilter filter = ColumnFilter.parse("test\\..*:id,test.t.:id", "");

        assertThat(filter.forTable("test", "t1").keepsAll()).isTrue();
        assertThat(filter.forTable("test", "t1").keeps("anything")).isTrue();
    }

    @Test
    void keysAndColumnsAreTrimmedAndMalformedItemsIgnored() {
        ColumnFilter filter = ColumnFilter.parse(" test.t1 : id / name ,broken,a:b:c,,", "");

        ColumnFilter.Selection t1 = filter.forTable("test", "t1");
        assertThat(t1.columns()).containsExactlyInAnyOrder("ID", "NAME");
        assertThat(filter.forTable("a", "b").keepsAll()).isTrue();
    }

    @Test
    void noConfigurationKeepsEveryColumn() {
        ColumnFilter filter = ColumnFilter.parse(null, " ");

        assertThat(filter.isEmpty()).isTrue();
        assertThat(filter.forTable("s", "t")).isSameAs(ColumnFilter.Selection.ALL);
    }
}
