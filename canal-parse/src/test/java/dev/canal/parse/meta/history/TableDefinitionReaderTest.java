package dev.canal.parse.meta.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLCharExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDefinitionReaderTest {

    private static final String CREATE = "CREATE TABLE t (a int(10) unsigned, b DECIMAL(65,30), "
            + "c varchar(32) CHARACTER SET latin1, d varchar(8) CHARACTER SET `utf8mb4` COLLATE utf8mb4_bin, "
            + "e datetime(3), f bit(1), g enum('x','y''z'), h set('p','q'), i float(7,3), j BINARY(16), "
            + "k char(4) charset 'ascii', l text CHARACTER SET utf8, m decimal(12), n timestamp(6), "
            + "o varchar(3) COLLATE latin1_bin) ENGINE=InnoDB DEFAULT CHARSET=`latin1` COLLATE 'latin1_swedish_ci'";

    @Test
    void typeArgumentsAndCharsetNamesAreWrittenAsDruidWritesThem() {
        SQLCreateTableStatement create = (SQLCreateTableStatement) SQLUtils.parseSingleStatement(CREATE, DbType.mysql);
        List<SQLExpr> written = new ArrayList<>();
        for (SQLColumnDefinition column : create.getColumnDefinitions()) {
            written.addAll(column.getDataType().getArguments());
            for (SQLExpr named : new SQLExpr[] {column.getCharsetExpr(), column.getCollateExpr()}) {
                if (named != null) {
                    written.add(named);
                }
            }
        }
        create.getTableOptions().forEach(option -> written.add(option.getValue()));

        assertThat(written).hasSizeGreaterThan(15).hasAtLeastOneElementOfType(SQLIntegerExpr.class)
                .hasAtLeastOneElementOfType(SQLIdentifierExpr.class).hasAtLeastOneElementOfType(SQLCharExpr.class);
        for (SQLExpr expr : written) {
            assertThat(TableDefinitionReader.sql(expr)).as(expr.getClass().getSimpleName())
                    .isEqualTo(SQLUtils.toSQLString(expr, DbType.mysql));
        }
    }

    @Test
    void aColumnsMysqlTypeKeepsItsArguments() {
        SQLCreateTableStatement create = (SQLCreateTableStatement) SQLUtils.parseSingleStatement(CREATE, DbType.mysql);

        List<String> types = TableDefinitionReader.read("s", "t", create, "utf8mb4", new SharedText()).meta().columns().stream()
                .map(c -> c.mysqlType()).toList();

        assertThat(types).startsWith("int(10) unsigned", "DECIMAL(65,30)", "varchar(32)", "varchar(8)", "datetime(3)",
                "bit(1)", "enum('x','y''z')", "set('p','q')", "float(7,3)", "BINARY(16)");
    }
}
