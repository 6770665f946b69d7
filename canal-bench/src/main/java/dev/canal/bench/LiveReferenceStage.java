package dev.canal.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stage {@code decode-reference-live}: the reference decoder as a replica, i.e. mysql-binlog-connector-java's own
 * {@link BinaryLogClient} catching up over the replication connection from the workload's start, with the
 * deserializer of the in-memory stage ({@link ReferenceRows#newDeserializer()}). Its event listener counts rows
 * until the workload's last one; the clock runs from connect until then. This is the like-for-like figure for
 * our catch-up into the store, which also reads the binlog from the source while it decodes (the in-memory
 * {@code decode-reference} stage does not, and runs faster than the source can send on a small machine).
 *
 * <p>In its cold pass the listener keeps the table map and rows events' data, digested only after the clock
 * stops, as the entries stages do with their entries: turning every value into text for the digest costs more
 * than the decoding, and would be charged to the reference if done in its reading thread. The client verifies no
 * checksum (it skips the CRC32 that our stream checks).
 */
final class LiveReferenceStage {

    /** Our stages replicate as {@link Target#SERVER_ID}; a replica with the same id would displace theirs. */
    static final long SERVER_ID = Target.SERVER_ID + 1;
    private static final String NAME = "decode-reference-live";
    private static final long TIMEOUT_MINUTES = 20;

    private LiveReferenceStage() {
    }

    /**
     * The stage's passes as {@link StoreStage} runs them (cold, warm-up, warm), each a new client from the
     * workload's start. Only the cold pass keeps its rows for the digest: a million rows of boxed values held on the heap cost
     * the reference more GC work than its decoding (a warm pass of 1M rows: 2.6 µs of CPU per row against 1.1),
     * which our entries stages, keeping one array per event, do not pay. The warm pass only counts rows and
     * reports the cold pass's digest: the same client over the same binlog.
     */
    static List<StageResult> run(Target target) throws Exception {
        StageResult cold = runOnce(target, NAME + "-cold", true);
        runOnce(target, NAME + "-warm-up", false);
        StageResult warm = runOnce(target, NAME, false);
        return List.of(cold, warm.withDigest(cold.digest()));
    }

    private static StageResult runOnce(Target target, String stage, boolean check) throws Exception {
        BinaryLogClient client = new BinaryLogClient(target.host(), target.port(), target.user(), target.password());
        client.setServerId(SERVER_ID);
        client.setBinlogFilename(target.file());
        client.setBinlogPosition(target.position());
        client.setKeepAlive(false); // its keep-alive thread reconnects after a failure: a failure must end the run
        client.setEventDeserializer(ReferenceRows.newDeserializer());
        ProcessMeter meter = ProcessMeter.self();
        Receiver receiver = new Receiver(target.rowChanges(), meter, check);
        client.registerEventListener(receiver);
        client.registerLifecycleListener(receiver);

        long cpu = meter.cpuNanos();
        long started = System.nanoTime();
        Thread reader = new Thread(() -> receiver.read(client), "bench-reference-client");
        reader.start();
        Finish finish = receiver.await();
        long peakRssKb = meter.peakRssKb();
        client.disconnect();
        reader.join(TimeUnit.SECONDS.toMillis(30));

        RowDigest digest = new RowDigest();
        ReferenceRows rows = new ReferenceRows(digest, target.binaryJson());
        receiver.kept.forEach(rows::add);
        return new StageResult(stage, check ? digest.rows() : receiver.rows, receiver.events, receiver.bytes,
                finish.nanos() - started, finish.cpuNanos() - cpu, peakRssKb, digest.value());
    }

    /** When the last row arrived, by the wall clock and the process's CPU time. */
    private record Finish(long nanos, long cpuNanos) {
    }

    /**
     * Counts rows in the client's reading thread until the workload's count; any failure of the client ends the
     * run with that failure.
     */
    private static final class Receiver extends BinaryLogClient.AbstractLifecycleListener
            implements BinaryLogClient.EventListener {

        private final long rowChanges;
        private final ProcessMeter meter;
        private final boolean keep;
        private final CompletableFuture<Finish> done = new CompletableFuture<>();
        private final List<EventData> kept = new ArrayList<>();
        private long rows;
        private long events;
        private long bytes;

        Receiver(long rowChanges, ProcessMeter meter, boolean keep) {
            this.rowChanges = rowChanges;
            this.meter = meter;
            this.keep = keep;
        }

        /** The reading thread: connect() reads events until the client disconnects. */
        void read(BinaryLogClient client) {
            try {
                client.connect();
                done.completeExceptionally(new IllegalStateException("the server ended the binlog stream after "
                        + rows + " of " + rowChanges + " rows"));
            } catch (IOException | RuntimeException e) {
                done.completeExceptionally(e);
            }
        }

        @Override
        public void onEvent(Event event) {
            if (rows >= rowChanges) {
                return;
            }
            events++;
            if (event.getHeader() instanceof EventHeaderV4 header) {
                bytes += header.getEventLength();
            }
            EventData data = event.getData();
            int count = ReferenceRows.count(data);
            if (keep && (count > 0 || data instanceof TableMapEventData)) {
                kept.add(data);
            }
            rows += count;
            if (rows >= rowChanges) {
                done.complete(new Finish(System.nanoTime(), meter.cpuNanos()));
            }
        }

        @Override
        public void onCommunicationFailure(BinaryLogClient client, Exception e) {
            done.completeExceptionally(e);
        }

        @Override
        public void onEventDeserializationFailure(BinaryLogClient client, Exception e) {
            done.completeExceptionally(e);
        }

        Finish await() throws Exception {
            try {
                return done.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the reference client failed after " + rows + " rows: "
                        + e.getCause().getMessage(), e.getCause());
            } catch (TimeoutException e) {
                throw new TimeoutException("decode-reference-live: " + rows + " of " + rowChanges + " rows after "
                        + TIMEOUT_MINUTES + " minutes");
            }
        }
    }
}
