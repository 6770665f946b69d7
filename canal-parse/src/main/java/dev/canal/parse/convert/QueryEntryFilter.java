package dev.canal.parse.convert;

import dev.canal.sink.filter.SinkFilterConfig;
import dev.canal.sink.filter.TableFilter;

/**
 * Whether the entry of a DDL or statement-DML QUERY event passes the instance's switches, as Canal decides it
 * (docs/compatibility.md, filter switches):
 * <ul>
 * <li>{@code filter.query.ddl} drops every such entry: DDL, statement DML and database statements alike;</li>
 * <li>{@code filter.query.dml} drops statement DML, which no table filter applies to;</li>
 * <li>{@code filter.query.dcl} drops the statements that are neither table DDL nor DML (CREATE/ALTER/DROP
 * DATABASE);</li>
 * <li>table DDL passes the table filter by its table, a rename when any of its pairs passes by either name.</li>
 * </ul>
 */
final class QueryEntryFilter {

    private QueryEntryFilter() {
    }

    static boolean keeps(SinkFilterConfig options, StatementKind kind) {
        if (options.filterQueryDdl()) {
            return false;
        }
        return switch (kind.category()) {
            case DML -> !options.filterQueryDml();
            case DDL -> kind.isDatabaseStatement() ? !options.filterQueryDcl() : tablePasses(options.tableFilter(), kind);
            default -> true;
        };
    }

    private static boolean tablePasses(TableFilter filter, StatementKind kind) {
        if (!kind.renames().isEmpty()) {
            return kind.renames().stream().anyMatch(r -> filter.acceptsRename(r.fromSchema() + "." + r.fromTable(),
                    r.toSchema() + "." + r.toTable()));
        }
        return !kind.changesTable() || filter.accepts(kind.schema(), kind.table());
    }
}
