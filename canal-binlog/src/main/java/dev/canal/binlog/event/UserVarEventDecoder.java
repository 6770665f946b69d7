package dev.canal.binlog.event;

import dev.canal.binlog.column.DecimalCodec;
import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;

/**
 * USER_VAR: name length (4), name, is-null (1); unless NULL: value type (1), charset (4), value length (4),
 * value, and (5.6+) a flags byte whose bit 0 marks an unsigned INT.
 */
final class UserVarEventDecoder implements EventDecoder<UserVarEvent> {

    private static final int UNSIGNED_FLAG = 1;

    @Override
    public UserVarEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        String name = c.string(c.checkedLength(c.uint32()));
        if (c.uint8() != 0) {
            return new UserVarEvent(header, name, UserVarEvent.STRING, 0, null, false);
        }
        int type = c.uint8();
        int charset = c.int32();
        int length = c.checkedLength(c.uint32());
        int valueStart = c.position();
        c.skip(length);
        boolean unsigned = c.hasRemaining() && (c.uint8() & UNSIGNED_FLAG) != 0;
        LittleEndianCursor v = new LittleEndianCursor(c.array(), valueStart, length);
        Object value = switch (type) {
            case UserVarEvent.STRING -> v.remainingBytes();
            case UserVarEvent.REAL -> v.float64();
            case UserVarEvent.INT -> v.int64();
            case UserVarEvent.DECIMAL -> DecimalCodec.read(v, v.uint8(), v.uint8());
            default -> throw new MalformedDataException("USER_VAR @" + name + " has unknown value type " + type);
        };
        return new UserVarEvent(header, name, type, charset, value, unsigned);
    }
}
