package dev.canal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.UnsafeByteOperations;
import dev.canal.protocol.CanalEntry;
import dev.canal.protocol.CanalEntry.EntryType;
import dev.canal.protocol.CanalEntry.EventType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Raw mode's encoding of an entry ({@link Event#encode}) against protobuf's own. */
class EventEncodingTest {

    private static final int LARGE = Event.SHARED_STORE_VALUE_BYTES;

    @Test
    void encodingIsByteForByteTheEntrysOwnForRandomEntriesOfEveryTypeAndSize() {
        long seed = System.nanoTime();
        System.out.println("EventEncodingTest seed " + seed);
        Random random = new Random(seed);
        int[] sizes = {0, 1, 127, 128, LARGE - 1, LARGE, LARGE + 1, 3 * LARGE + 17, 1 << 20};
        for (EntryType type : EntryType.values()) {
            for (int size : sizes) {
                for (int variant = 0; variant < 4; variant++) {
                    CanalEntry.Entry entry = randomEntry(random, type, size, variant);
                    assertThat(Event.encode(entry)).as("seed %d, %s, storeValue %d bytes, variant %d", seed, type,
                            size, variant).isEqualTo(entry.toByteString());
                }
            }
        }
    }

    @Test
    void entriesWithoutStoreValueOrFieldsEncodeAsTheirOwn() {
        CanalEntry.Entry empty = CanalEntry.Entry.getDefaultInstance();
        CanalEntry.Entry headerOnly = CanalEntry.Entry.newBuilder().setHeader(header(new Random(1))).build();
        CanalEntry.Entry valueOnly = CanalEntry.Entry.newBuilder()
                .setStoreValue(ByteString.copyFrom(new byte[LARGE * 2])).build();

        assertThat(Event.encode(empty)).isEqualTo(empty.toByteString()).isEmpty();
        assertThat(Event.encode(headerOnly)).isEqualTo(headerOnly.toByteString());
        assertThat(Event.encode(valueOnly)).isEqualTo(valueOnly.toByteString());
    }

    @Test
    void aLargeStoreValueIsSharedNotCopied() {
        byte[] value = new byte[2 * LARGE];
        CanalEntry.Entry entry = CanalEntry.Entry.newBuilder().setHeader(header(new Random(2)))
                .setEntryType(EntryType.ROWDATA).setStoreValue(UnsafeByteOperations.unsafeWrap(value)).build();

        Event event = Event.of(TestEvents.SOURCE, entry, true);
        value[LARGE] = 42; // visible through the event's bytes only if they share the array

        ByteString raw = event.rawBytes();
        assertThat(raw.byteAt(raw.size() - LARGE)).isEqualTo((byte) 42);
        assertThat(event.rawLength()).isEqualTo(entry.getSerializedSize());
        assertThat(event.parsedEntry()).isEqualTo(entry);
    }

    @Test
    void aSmallStoreValueIsCopiedIntoOneFlatArray() {
        byte[] value = new byte[LARGE - 1];
        CanalEntry.Entry entry = CanalEntry.Entry.newBuilder().setHeader(header(new Random(3)))
                .setStoreValue(UnsafeByteOperations.unsafeWrap(value)).build();

        ByteString raw = Event.of(TestEvents.SOURCE, entry, true).rawBytes();
        value[0] = 42;

        assertThat(raw.byteAt(raw.size() - value.length)).isZero();
    }

    /**
     * variant 0: every field; 1: no entry type (proto default); 2: no header; 3: every field, the value a rope and
     * unknown fields after it.
     */
    private static CanalEntry.Entry randomEntry(Random random, EntryType type, int size, int variant) {
        CanalEntry.Entry.Builder entry = CanalEntry.Entry.newBuilder();
        if (variant != 2) {
            entry.setHeader(header(random));
        }
        if (variant != 1) {
            entry.setEntryType(type);
        }
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        if (variant == 3) {
            int cut = size / 3;
            entry.setStoreValue(ByteString.copyFrom(bytes, 0, cut).concat(ByteString.copyFrom(bytes, cut, size - cut)));
            entry.setUnknownFields(UnknownFieldSet.newBuilder()
                    .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(random.nextLong()).build())
                    .addField(12, UnknownFieldSet.Field.newBuilder()
                            .addLengthDelimited(ByteString.copyFromUtf8("unknown " + random.nextInt())).build())
                    .build());
        } else if (size > 0 || random.nextBoolean()) {
            entry.setStoreValue(ByteString.copyFrom(bytes)); // an empty value set explicitly is still written
        }
        return entry.build();
    }

    private static CanalEntry.Header header(Random random) {
        CanalEntry.Header.Builder header = CanalEntry.Header.newBuilder().setLogfileName("mysql-bin.00000" + random.nextInt(9))
                .setLogfileOffset(random.nextInt(Integer.MAX_VALUE)).setServerId(random.nextInt(1000))
                .setExecuteTime(random.nextLong() & Long.MAX_VALUE).setEventType(EventType.INSERT)
                .setSchemaName("s\u00e9").setTableName("t" + random.nextInt(100))
                .setEventLength(random.nextInt(1 << 24));
        for (int i = random.nextInt(3); i > 0; i--) {
            header.addProps(CanalEntry.Pair.newBuilder().setKey("k" + i).setValue(String.valueOf(random.nextInt())));
        }
        return header.build();
    }
}
