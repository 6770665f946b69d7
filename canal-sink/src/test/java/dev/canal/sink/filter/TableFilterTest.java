package dev.canal.sink.filter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TableFilterTest {

    @Test
    void renamePassesTheWhiteListByEitherName() {
        TableFilter filter = TableFilter.of("shop\\.orders", "");

        assertThat(filter.acceptsRename("shop.orders", "shop.orders_old")).isTrue();
        assertThat(filter.acceptsRename("shop.orders_new", "shop.orders")).isTrue();
        assertThat(filter.acceptsRename("shop.a", "shop.b")).isFalse();
    }

    @Test
    void renameIsBlockedByTheBlackListOnlyWhenBothNamesMatchIt() {
        TableFilter filter = TableFilter.of(".*\\..*", "shop\\.tmp_.*");

        assertThat(filter.acceptsRename("shop.orders", "shop.tmp_orders")).isTrue();
        assertThat(filter.acceptsRename("shop.tmp_orders", "shop.orders")).isTrue();
        assertThat(filter.acceptsRename("shop.tmp_a", "shop.tmp_b")).isFalse();
    }
}
