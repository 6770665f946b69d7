package dev.canal.sink.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SinkFilterConfigTest {

    @Test
    void defaultsLetEveryTableAndColumnThroughWithEverySwitchOff() {
        SinkFilterConfig config = SinkFilterConfig.defaults();

        assertThat(config.tableFilter().whiteList().source()).isEqualTo(".*\\..*");
        assertThat(config.tableFilter().blackList().isEmpty()).isTrue();
        assertThat(config.columnFilter().isEmpty()).isTrue();
        assertThat(config.filterQueryDml() || config.filterQueryDcl() || config.filterQueryDdl()
                || config.filterDmlInsert() || config.filterDmlUpdate() || config.filterDmlDelete()
                || config.filterTransactionEntry() || config.filterTableError() || config.filterRows()).isFalse();
    }

    @Test
    void everyKeyIsReadFromPropertiesSyntax() throws IOException {
        Properties props = new Properties();
        props.load(new StringReader("""
                canal.instance.filter.regex=canal\\\\..*,mysql.test1
                canal.instance.filter.black.regex=mysql\\\\.slave_.*
                canal.instance.filter.field=canal.t1:id/name
                canal.instance.filter.black.field=canal.t2:secret
                canal.instance.filter.query.dml=true
                canal.instance.filter.query.dcl=TRUE
                canal.instance.filter.query.ddl= true
                canal.instance.filter.dml.insert=true
                canal.instance.filter.dml.update=true
                canal.instance.filter.dml.delete=true
                canal.instance.filter.transaction.entry=true
                canal.instance.filter.table.error=true
                canal.instance.filter.rows=true
                """));

        SinkFilterConfig config = SinkFilterConfig.fromProperties(props);

        assertThat(config.tableFilter().whiteList().items()).containsExactly("mysql.test1", "canal\\..*");
        assertThat(config.tableFilter().accepts("canal", "x")).isTrue();
        assertThat(config.tableFilter().accepts("mysql", "slave_x")).isFalse();
        assertThat(config.columnFilter().forTable("canal", "t1").keeps("other")).isFalse();
        assertThat(config.columnFilter().forTable("canal", "t2").keeps("secret")).isFalse();
        assertThat(config.filterQueryDml() && config.filterQueryDcl() && config.filterQueryDdl()
                && config.filterDmlInsert() && config.filterDmlUpdate() && config.filterDmlDelete()
                && config.filterTransactionEntry() && config.filterTableError() && config.filterRows()).isTrue();
    }

    @Test
    void aBlankWhiteListTakesTheDefault() {
        Properties props = new Properties();
        props.setProperty(SinkFilterConfig.TABLE_REGEX.name(), "   ");

        assertThat(SinkFilterConfig.fromProperties(props).tableFilter().whiteList().source()).isEqualTo(".*\\..*");
    }

    @Test
    void aBadRegexNamesItsKey() {
        Properties props = new Properties();
        props.setProperty(SinkFilterConfig.TABLE_BLACK_REGEX.name(), "canal\\.(x");

        assertThatThrownBy(() -> SinkFilterConfig.fromProperties(props))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(SinkFilterConfig.TABLE_BLACK_REGEX.name())
                .hasMessageContaining("canal\\.(x");
    }

    @Test
    void aNonBooleanSwitchNamesItsKey() {
        Properties props = new Properties();
        props.setProperty(SinkFilterConfig.ROWS.name(), "yes");

        assertThatThrownBy(() -> SinkFilterConfig.fromProperties(props))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(SinkFilterConfig.ROWS.name());
    }

    @Test
    void aClientWhiteListKeepsTheOtherSwitches() {
        Properties props = new Properties();
        props.setProperty(SinkFilterConfig.ROWS.name(), "true");

        SinkFilterConfig config = SinkFilterConfig.fromProperties(props).withTableWhiteList("a\\..*");

        assertThat(config.filterRows()).isTrue();
        assertThat(config.tableFilter().accepts("b", "t")).isFalse();
    }
}
