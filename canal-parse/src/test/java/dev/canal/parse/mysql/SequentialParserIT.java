package dev.canal.parse.mysql;

/** {@link MysqlEventParserIT} with {@code canal.instance.parser.parallel=false}: every stage on the reader thread. */
class SequentialParserIT extends MysqlEventParserIT {

    @Override
    boolean parallel() {
        return false;
    }
}
