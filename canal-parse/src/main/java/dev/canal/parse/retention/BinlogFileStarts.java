package dev.canal.parse.retention;

import java.io.IOException;

/** When a binlog file of the source began: the time of its first event, in seconds since the epoch. */
@FunctionalInterface
public interface BinlogFileStarts {

    long startSeconds(String file) throws IOException;
}
