package dev.canal.parse.mysql;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.canal.parse.convert.EntryConverter;
import dev.canal.parse.convert.EntryConverter.RowsTask;
import dev.canal.parse.convert.EventPosition;
import dev.canal.binlog.event.BinlogEvent;
import dev.canal.binlog.event.DecoderContext;
import dev.canal.binlog.event.HeartbeatEvent;
import dev.canal.binlog.event.RotateEvent;
import dev.canal.binlog.event.RowsEvent;
import dev.canal.binlog.event.TransactionPayloadEvent;
import dev.canal.binlog.net.BinlogStream;
import dev.canal.protocol.CanalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The decoding pipeline of docs/architecture.md, between the reader thread and the sink:
 * <ol>
 *   <li>stage 1, one thread, in binlog order: decode the event, keep the table maps and the position, turn
 *       everything but row images into entries, and decide filters and table meta for rows events;</li>
 *   <li>stage 2, N threads, any order: decode row images and build their entries (the expensive part);</li>
 *   <li>stage 3, one thread, in binlog order again: hand the entries on (transaction buffer, then sink).</li>
 * </ol>
 * With parallel parsing off the same three stages run one after another on the reader thread.
 *
 * <p>The stages wait with {@link IdleBlockingWaitStrategy}: for the reader they block (an idle destination costs
 * no CPU), for the stage before them they back off with short parks (busy-spinning there starves, on two cores,
 * the very thread being waited for: docs/performance.md).
 *
 * <p>The ring is bounded in bytes as well as in slots: while the large events in flight (published, not yet handed
 * on by stage 3) hold more than {@code canal.instance.parser.parallelBufferBytes} of event bytes, the reader waits
 * before publishing another large one. Slots alone let a stalled sink leave the ring holding {@code parallelBufferSize}
 * events of 16 MiB and more, each with its entries (1.5 to 2 times its size), which a 256 MiB heap cannot hold
 * (docs/reliability.md, scenario 9). Only events of at least {@link #LARGE_EVENT_BYTES} are counted: rows events
 * are split at {@code binlog_row_event_max_size} (8 KiB by default), so the usual small events pay nothing and are
 * bounded by the slots ({@code parallelBufferSize} x 64 KiB at most). Nor does a large event enter the ring while
 * stage 3 is handing entries on: when that takes long, the sink waits for room in a full store, and an event let in
 * then would only wait in the ring, decoded into entries up to twice its size, beside the transaction waiting for
 * the store. The reader waits for that room before it reads a large event ({@link #awaitRoomToRead}), so the event
 * waits with the source, not in the reader's memory.
 *
 * <p>A failure in any stage is kept and rethrown to the reader at its next {@link #publish}, which ends the
 * dump; the parser then reconnects from its last delivered position.
 */
final class EntryPipeline implements AutoCloseable {

    /** Events from this size on count against the ring's byte bound. */
    static final int LARGE_EVENT_BYTES = 64 * 1024;

    /** Where stage 3 sends the entries of one event, in binlog order. */
    interface Output {
        void accept(List<CanalEntry.Entry> entries) throws InterruptedException;
    }

    /**
     * One ring slot: an event's bytes, then its entries-to-be. A slot lets go of both once its event has been
     * handed on, failed or skipped, so the ring holds only the events in flight: an event can be many MiB
     * (docs/reliability.md, scenario 9) and a slot is only overwritten when the ring comes round again.
     */
    static final class Slot {
        byte[] bytes;
        String file;
        /** the event's length if it counts against the byte bound, else 0; kept until stage 3 is done */
        long largeBytes;
        /** built entries and pending {@link RowsTask}s, in binlog order */
        final List<Object> parts = new ArrayList<>(2);
        boolean hasTasks;

        void reset(byte[] eventBytes, String eventFile, long eventLargeBytes) {
            bytes = eventBytes;
            largeBytes = eventLargeBytes;
            file = eventFile;
            parts.clear();
            hasTasks = false;
        }
    }

    private final DecoderContext context;
    private final EntryConverter converter;
    private final Output output;
    private final String skipFile;
    private final long skipUpTo;
    private boolean skipping; // stage 1 only
    private final Disruptor<Slot> disruptor;
    private final RingBuffer<Slot> ring;
    private final Slot inline = new Slot();
    private final AtomicLong delivered = new AtomicLong(-1);
    private volatile Throwable failure;
    private long published = -1; // reader thread only
    private final LongAdder publishBlockingNanos;
    private final long largeBytesBound;
    /** bytes of the large events published and not yet through stage 3 (reader adds, stage 3 subtracts) */
    private final AtomicLong largeBytesInFlight = new AtomicLong();
    /** Whether stage 3 is in {@link Output#accept} (set by stage 3 with release semantics, read by the reader). */
    private final AtomicBoolean handingOn = new AtomicBoolean();
    private final FreeSlotWait freeSlot = new FreeSlotWait();

    /**
     * @param context   the stream's decoder context, whose table maps the converter reads too
     * @param skipFile  with {@code skipUpTo}: events of this file at or before that offset were delivered before
     *                  and produce nothing (-1: nothing to skip)
     * @param workers   stage 2 threads; 0 runs every stage on the reader thread
     * @param largeBytesBound      bytes of large events the ring may hold beyond the first (see the class comment)
     * @param publishBlockingNanos where time spent waiting for a free ring slot or for the byte bound is added up
     */
    EntryPipeline(String name, DecoderContext context, EntryConverter converter, Output output, String skipFile,
            long skipUpTo, int workers, int bufferSize, long largeBytesBound, LongAdder publishBlockingNanos) {
        this.publishBlockingNanos = publishBlockingNanos;
        this.largeBytesBound = largeBytesBound;
        this.context = context;
        this.converter = converter;
        this.output = output;
        this.skipFile = skipFile;
        this.skipUpTo = skipUpTo;
        this.skipping = skipUpTo >= 0;
        if (workers <= 0) {
            disruptor = null;
            ring = null;
            return;
        }
        AtomicInteger threads = new AtomicInteger();
        disruptor = new Disruptor<>(Slot::new, bufferSize, r -> {
            Thread t = new Thread(r, name + "-stage-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, ProducerType.SINGLE, new IdleBlockingWaitStrategy());
        EventHandler<Slot>[] stage2 = rowWorkers(workers);
        disruptor.handleEventsWith((slot, seq, end) -> stage1(slot)).then(stage2).then(new LastStage());
        disruptor.setDefaultExceptionHandler(new KeepFirstFailure());
        ring = disruptor.start();
    }

    /**
     * Stage 3 as the ring's last handler. It tells the ring of each slot it handed on at once (Disruptor would at
     * the end of a batch only), so that a reader waiting for a free slot ({@link FreeSlotWait}) can take it.
     */
    private final class LastStage implements EventHandler<Slot> {

        private Sequence handedOn;

        @Override
        public void setSequenceCallback(Sequence sequence) {
            handedOn = sequence;
        }

        @Override
        public void onEvent(Slot slot, long seq, boolean endOfBatch) throws InterruptedException {
            try {
                stage3(slot);
            } catch (RuntimeException | Error e) {
                // kept before the slot counts as delivered: drain must not see the one without the other
                keepFirst(e);
                throw e;
            } finally {
                releaseLargeBytes(slot);
                delivered.set(seq);
                handedOn.setVolatile(seq);
                freeSlot.slotFreed();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private EventHandler<Slot>[] rowWorkers(int workers) {
        EventHandler<Slot>[] handlers = new EventHandler[workers];
        for (int i = 0; i < workers; i++) {
            int index = i;
            handlers[i] = (slot, seq, end) -> {
                if (slot.hasTasks && seq % workers == index) {
                    stage2(slot);
                }
            };
        }
        return handlers;
    }

    /** Reader thread: hands over one whole event from {@code file}. */
    void publish(byte[] event, String file) throws InterruptedException {
        rethrowFailure();
        if (ring == null) {
            inline.reset(event, file, 0);
            stage1(inline);
            stage2(inline);
            stage3(inline);
            return;
        }
        long largeBytes = event.length >= LARGE_EVENT_BYTES ? event.length : 0;
        if (largeBytes > 0) {
            awaitRoomFor(largeBytes);
            largeBytesInFlight.addAndGet(largeBytes);
        }
        long seq;
        if (ring.hasAvailableCapacity(1)) {
            seq = ring.next();
        } else {
            long waitStart = System.nanoTime();
            freeSlot.await(() -> ring.hasAvailableCapacity(1), this::rethrowFailure);
            seq = ring.next();
            publishBlockingNanos.add(System.nanoTime() - waitStart);
        }
        ring.get(seq).reset(event, file, largeBytes);
        ring.publish(seq);
        published = seq;
    }

    /**
     * Reader thread: waits while the large events in flight would hold more than the bound with this one (never
     * while none is in flight, so an event larger than the bound still passes), and while stage 3 is handing entries
     * on. Polls, as {@link #drain} does: it runs only behind a large event or a sink waiting for the store, which
     * take far longer than a poll.
     */
    private void awaitRoomFor(long largeBytes) throws InterruptedException {
        if (hasRoomFor(largeBytes)) {
            return;
        }
        long waitStart = System.nanoTime();
        try {
            while (!hasRoomFor(largeBytes)) {
                rethrowFailure();
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        } finally {
            publishBlockingNanos.add(System.nanoTime() - waitStart);
        }
    }

    /**
     * Reader thread: waits as {@link #publish} would for an event of at least {@code bytes}, before that event is
     * read from the source (the stream's {@link BinlogStream.ReadGate}), so that a large event waiting for room waits
     * with the source, not in the reader's memory. On an interrupt it returns with the interrupt status set; the
     * next {@link #publish} then throws.
     */
    void awaitRoomToRead(long bytes) {
        if (ring == null) {
            return;
        }
        try {
            awaitRoomFor(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean hasRoomFor(long largeBytes) {
        long inFlight = largeBytesInFlight.get();
        return (inFlight == 0 || inFlight + largeBytes <= largeBytesBound) && !handingOn.getAcquire();
    }

    private void releaseLargeBytes(Slot slot) {
        if (slot.largeBytes > 0) {
            largeBytesInFlight.addAndGet(-slot.largeBytes);
            slot.largeBytes = 0;
        }
    }

    /** Bytes of the large events published and not yet handed on by stage 3. */
    long largeBytesInFlight() {
        return largeBytesInFlight.get();
    }

    /** Reader thread: waits until every published event went through stage 3. */
    void drain() throws InterruptedException {
        while (ring != null && delivered.get() < published) {
            rethrowFailure();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // end of a dump only, not per event
        }
        rethrowFailure();
    }

    @Override
    public void close() {
        if (disruptor != null) {
            disruptor.halt();
        }
    }

    private void stage1(Slot slot) {
        byte[] bytes = slot.bytes;
        slot.bytes = null;
        if (failure != null) {
            return;
        }
        BinlogEvent event = context.decode(bytes);
        if (event instanceof HeartbeatEvent) {
            // not an event of the binlog: never skipped, whatever position its header claims (0 in a HEARTBEAT_V2)
            slot.parts.addAll(converter.convert(event, EventPosition.of(slot.file, event.header())));
            return;
        }
        if (event instanceof RotateEvent || event.header().nextPosition() == 0) {
            return; // the stream follows rotations; artificial events (the dump's format description) have no position
        }
        EventPosition at = EventPosition.of(slot.file, event.header());
        if (skipping) {
            if (slot.file.equals(skipFile) && at.offset() <= skipUpTo) {
                return;
            }
            skipping = false;
        }
        if (event instanceof TransactionPayloadEvent payload) {
            for (BinlogEvent inner : payload.events()) {
                prepare(slot, inner, at);
            }
        } else {
            prepare(slot, event, at);
        }
    }

    private void prepare(Slot slot, BinlogEvent event, EventPosition at) {
        if (event instanceof RowsEvent rows) {
            RowsTask task = converter.prepareRows(rows, at);
            if (task != null) {
                slot.parts.add(task);
                slot.hasTasks = true;
            }
        } else {
            slot.parts.addAll(converter.convert(event, at));
        }
    }

    private void stage2(Slot slot) {
        if (failure != null || !slot.hasTasks) {
            return;
        }
        List<Object> parts = slot.parts;
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i) instanceof RowsTask task) {
                parts.set(i, converter.buildRows(task));
            }
        }
    }

    private void stage3(Slot slot) throws InterruptedException {
        if (failure != null || slot.parts.isEmpty()) {
            slot.parts.clear();
            return;
        }
        List<CanalEntry.Entry> entries = new ArrayList<>(slot.parts.size());
        for (Object part : slot.parts) {
            entries.add((CanalEntry.Entry) part);
        }
        slot.parts.clear();
        handingOn.setRelease(true);
        try {
            output.accept(entries);
        } finally {
            handingOn.setRelease(false);
        }
    }

    /** Ring slots (or the inline one) still holding an event's bytes or parts: the events in flight. */
    int slotsInUse() {
        int inUse = 0;
        for (int i = 0; i < (ring == null ? 1 : ring.getBufferSize()); i++) {
            Slot slot = ring == null ? inline : ring.get(i);
            if (slot.bytes != null || !slot.parts.isEmpty()) {
                inUse++;
            }
        }
        return inUse;
    }

    private synchronized void keepFirst(Throwable t) {
        if (failure == null) {
            failure = t;
        }
    }

    private void rethrowFailure() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException("entry pipeline failed: " + t, t);
        }
    }

    /** Keeps the first failure; later stages skip their work once one is recorded. */
    private final class KeepFirstFailure implements ExceptionHandler<Slot> {

        @Override
        public void handleEventException(Throwable ex, long sequence, Slot slot) {
            keepFirst(ex);
        }

        @Override
        public void handleOnStartException(Throwable ex) {
            failure = ex;
        }

        @Override
        public void handleOnShutdownException(Throwable ex) {
            // the dump is over; nothing is waiting for this pipeline any more
        }
    }
}
