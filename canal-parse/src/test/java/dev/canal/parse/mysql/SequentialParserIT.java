package dev.canal.parse.mysql;

/**
 * {@link MysqlEventParserIT} with {@code canal.instance.parser.parallel=false} (every stage on the reader thread)
 * and the schema history as the table meta source ({@code canal.instance.tsdb.enable=true}).
 */
class SequentialParserIT extends MysqlEventParserIT {

    @Override
    boolean parallel() {
        return false;
    }

    @Override
    boolean schemaHistory() {
        return true;
    }
}
