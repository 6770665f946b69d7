package dev.canal.binlog.event;

import dev.canal.binlog.io.LittleEndianCursor;
import dev.canal.binlog.io.MalformedDataException;

/** XA_PREPARE: one_phase (1), format id (4), gtrid length (4), bqual length (4), then gtrid and bqual bytes. */
final class XaPrepareEventDecoder implements EventDecoder<XaPrepareEvent> {

    /** MySQL's XIDDATASIZE: gtrid plus bqual never exceed 128 bytes. */
    private static final int MAX_XID_DATA = 128;

    @Override
    public XaPrepareEvent decode(EventHeader header, LittleEndianCursor c, DecoderContext context) {
        boolean onePhase = c.uint8() != 0;
        long formatId = c.int32();
        long gtridLength = c.uint32();
        long bqualLength = c.uint32();
        if (gtridLength + bqualLength > MAX_XID_DATA) {
            throw new MalformedDataException("XA_PREPARE xid of " + gtridLength + "+" + bqualLength
                    + " bytes exceeds " + MAX_XID_DATA);
        }
        byte[] gtrid = c.bytes((int) gtridLength);
        byte[] bqual = c.bytes((int) bqualLength);
        return new XaPrepareEvent(header, onePhase, new XaXid(formatId, gtrid, bqual));
    }
}
