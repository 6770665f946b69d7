package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaModelTest {

    private static final String CREATE = "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(16)) ENGINE=InnoDB "
            + "DEFAULT CHARSET=utf8mb4 COMMENT='wide'";

    @Test
    void aTableCreatedByDdlIsHeldOnceNotWithTheParsedStatementBehindItsOptions() {
        SchemaModel model = new SchemaModel();
        model.apply("shop", CREATE);

        assertOptionsBelongTo(model.definition("shop", "t").orElseThrow());
    }

    @Test
    void aTableReadFromTheSourceIsHeldOnceNotWithTheParsedStatementBehindItsOptions() {
        SchemaModel model = new SchemaModel();
        model.replace("shop", "t", CREATE);

        assertOptionsBelongTo(model.definition("shop", "t").orElseThrow());
    }

    @Test
    void aSnapshotStatementThatCannotBeReadLeavesOnlyItsOwnTableOut() {
        SchemaModel model = SchemaModel.restore(Map.of("shop", "CREATE TABLE a (id INT PRIMARY KEY);\n"
                + "CREATE TABLE b (id INT PRIMARY KEY) NOT ANY SQL AT ALL;\n"
                + "CREATE TABLE c (id INT PRIMARY KEY, note VARCHAR(8));\n"));

        assertThat(model.tableNames()).containsEntry("shop", List.of("a", "c"));
        assertThat(model.table("shop", "c").orElseThrow().columnCount()).isEqualTo(2);
    }

    /** An option whose parent is another statement keeps that whole statement, all its columns, in memory. */
    private static void assertOptionsBelongTo(SQLCreateTableStatement stored) {
        assertThat(stored.getTableOptions()).isNotEmpty();
        for (SQLAssignItem option : stored.getTableOptions()) {
            assertThat(option.getParent()).as(option.toString()).isSameAs(stored);
        }
    }
}
