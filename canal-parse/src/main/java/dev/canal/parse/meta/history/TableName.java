package dev.canal.parse.meta.history;

import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRename;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlRenameTableStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A table a DDL statement names, schema and table as written (unquoted), the session's schema where it names none.
 * Equal regardless of case, as MySQL's names are by default and as the schema model compares them.
 */
record TableName(String schema, String table) {

    @Override
    public boolean equals(Object o) {
        return o instanceof TableName other && schema.equalsIgnoreCase(other.schema)
                && table.equalsIgnoreCase(other.table);
    }

    @Override
    public int hashCode() {
        return schema.toLowerCase(Locale.ROOT).hashCode() * 31 + table.toLowerCase(Locale.ROOT).hashCode();
    }

    /**
     * Every table {@code statement} reads or changes: the created table and the one it is LIKE, the altered one and
     * its new name, both names of each RENAME pair, the dropped tables, the table of an index. None for a statement
     * that changes no table's columns.
     */
    static List<TableName> namedBy(SQLStatement statement, String defaultSchema) {
        List<TableName> names = new ArrayList<>(2);
        if (statement instanceof SQLCreateTableStatement create) {
            add(names, create.getSchema(), create.getTableName(), defaultSchema);
            if (create.getLike() != null) {
                add(names, create.getLike(), defaultSchema);
            }
        } else if (statement instanceof SQLAlterTableStatement alter) {
            add(names, alter.getSchema(), alter.getTableName(), defaultSchema);
            for (SQLAlterTableItem item : alter.getItems()) {
                if (item instanceof SQLAlterTableRename rename && rename.getToName() != null) {
                    add(names, rename.getToName(), defaultSchema);
                }
            }
        } else if (statement instanceof MySqlRenameTableStatement rename) {
            for (MySqlRenameTableStatement.Item item : rename.getItems()) {
                add(names, item.getName(), defaultSchema);
                add(names, item.getTo(), defaultSchema);
            }
        } else if (statement instanceof SQLDropTableStatement drop) {
            for (SQLExprTableSource table : drop.getTableSources()) {
                add(names, table, defaultSchema);
            }
        } else if (statement instanceof SQLCreateIndexStatement index) {
            add(names, index.getTable(), defaultSchema);
        } else if (statement instanceof SQLDropIndexStatement index) {
            add(names, index.getTableName(), defaultSchema);
        }
        return names;
    }

    private static void add(List<TableName> names, SQLTableSource source, String defaultSchema) {
        if (source instanceof SQLExprTableSource table) {
            add(names, table.getSchema(), table.getTableName(), defaultSchema);
        }
    }

    private static void add(List<TableName> names, SQLName name, String defaultSchema) {
        if (name instanceof SQLPropertyExpr qualified) {
            add(names, qualified.getOwnerName(), qualified.getName(), defaultSchema);
        } else if (name != null) {
            add(names, null, name.getSimpleName(), defaultSchema);
        }
    }

    private static void add(List<TableName> names, String schema, String table, String defaultSchema) {
        String s = schema != null ? SQLUtils.normalize(schema) : defaultSchema;
        if (s != null && !s.isEmpty() && table != null) {
            names.add(new TableName(s, SQLUtils.normalize(table)));
        }
    }
}
