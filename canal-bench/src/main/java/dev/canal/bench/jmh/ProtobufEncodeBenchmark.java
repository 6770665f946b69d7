package dev.canal.bench.jmh;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalPacket;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Protobuf costs around one ROWDATA entry of the workload table (an INSERT rows event): encoding the entry once
 * (what raw mode stores), parsing it back (what a non-raw consumer pays), and framing a MESSAGES packet of
 * {@value #BATCH} stored entries as the server does for a client batch.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProtobufEncodeBenchmark {

    static final int BATCH = 100;

    private CanalEntry.Entry entry;
    private ByteString encoded;

    @Setup
    public void build() {
        SampleRows sample = new SampleRows(RowsEvent.Kind.WRITE);
        entry = sample.converter.buildRows(sample.task);
        encoded = entry.toByteString();
    }

    @Benchmark
    public ByteString encodeEntry() {
        return entry.toByteString();
    }

    @Benchmark
    public CanalEntry.Entry parseEntry() throws InvalidProtocolBufferException {
        return CanalEntry.Entry.parseFrom(encoded);
    }

    @Benchmark
    public byte[] messagesPacketOfStoredEntries() {
        CanalPacket.Messages messages = CanalPacket.Messages.newBuilder().setBatchId(1)
                .addAllMessages(Collections.nCopies(BATCH, encoded)).build();
        return CanalPacket.Packet.newBuilder().setType(CanalPacket.PacketType.MESSAGES)
                .setBody(messages.toByteString()).build().toByteArray();
    }
}
