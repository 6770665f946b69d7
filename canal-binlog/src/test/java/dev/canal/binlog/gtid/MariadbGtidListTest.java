package dev.canal.binlog.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MariadbGtidListTest {

    @Test
    void parsesAndPrintsInDomainOrder() {
        MariadbGtidList list = MariadbGtidList.parse("1-2-5, 0-1-100");
        assertThat(list).hasToString("0-1-100,1-2-5");
        assertThat(list.get(1)).isEqualTo(new MariadbGtid(1, 2, 5));
        assertThat(MariadbGtidList.parse("").isEmpty()).isTrue();
    }

    @Test
    void updateReplacesOnlyTheGtidOfItsDomain() {
        MariadbGtidList list = MariadbGtidList.parse("0-1-100,1-2-5");
        list.update(MariadbGtid.parse("0-3-101"));
        list.update(MariadbGtid.parse("7-1-1"));
        assertThat(list).hasToString("0-3-101,1-2-5,7-1-1");
    }

    @Test
    void badTextIsRejectedWithTheInput() {
        assertThatThrownBy(() -> MariadbGtidList.parse("0-1")).hasMessageContaining("0-1");
        assertThatThrownBy(() -> MariadbGtidList.parse("0-1-x")).hasMessageContaining("0-1-x");
        assertThatThrownBy(() -> MariadbGtidList.parse("0-1-1,0-2-2")).hasMessageContaining("twice");
    }
}
