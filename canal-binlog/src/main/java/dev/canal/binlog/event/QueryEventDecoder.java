package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * QUERY and MariaDB QUERY_COMPRESSED. Post-header: thread id (4), execution time (4), schema length (1), error
 * code (2), status variables length (2). Body: status variables, schema, a 0x00, the statement (zlib-compressed
 * in QUERY_COMPRESSED).
 */
final class QueryEventDecoder implements EventDecoder<QueryEvent> {

    /** Post-header length of binlog v4 QUERY events; v3 lacked the status variables length. */
    private static final int POST_HEADER_V4 = 13;

    @Override
    public QueryEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        int bodyStart = c.position();
        long threadId = c.uint32();
        long execTime = c.uint32();
        int schemaLength = c.uint8();
        int errorCode = c.uint16();
        int statusLength = c.uint16();
        c.position(bodyStart + Math.max(POST_HEADER_V4, context.postHeaderLength(header.type())));
        int statusEnd = c.position() + c.checkedLength(statusLength);
        QueryStatusVariables status = QueryStatusVariablesReader.read(c, statusEnd);
        c.position(statusEnd);
        String schema = c.string(schemaLength, StandardCharsets.UTF_8);
        c.skip(1);
        // the statement is in the client's charset, the schema name always in UTF-8
        Charset charset = ClientCharsets.forCollation(status.charsetClient());
        String sql;
        if (header.type() == EventType.MARIA_QUERY_COMPRESSED) {
            byte[] inflated = MariaCompression.inflate(c.array(), c.position(), c.remaining(), "QUERY_COMPRESSED");
            sql = new String(inflated, charset);
        } else {
            sql = c.string(c.remaining(), charset);
        }
        return new QueryEvent(header, threadId, execTime, errorCode, schema, sql, status);
    }
}
