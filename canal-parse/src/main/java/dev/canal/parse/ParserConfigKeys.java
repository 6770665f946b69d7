package dev.canal.parse;

import dev.canal.parse.meta.history.TsdbConfig;
import dev.canal.parse.mysql.MysqlParserConfig;
import dev.canal.parse.mysql.SourceConnectionKeys;
import dev.canal.parse.mysql.StandbySource;
import dev.canal.parse.retention.RetentionConfig;
import dev.canal.parse.snapshot.SnapshotConfig;
import dev.canal.protocol.config.ConfigKeySource;
import java.util.stream.Stream;

/** The parser's keys (source, start position, decoding, connections, schema history, snapshots, binlog retention), for the key catalogue. */
public final class ParserConfigKeys extends ConfigKeySource {

    public ParserConfigKeys() {
        super("Source and parser", "instance.properties", Stream.of(MysqlParserConfig.KEYS,
                SourceConnectionKeys.KEYS, StandbySource.KEYS, TsdbConfig.KEYS, SnapshotConfig.KEYS, RetentionConfig.KEYS)
                .flatMap(java.util.List::stream).toList());
    }
}
