package dev.canal.server.netty;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.Message;
import dev.canal.protocol.UntrustedText;
import dev.canal.server.CanalServer;
import dev.canal.server.CanalServerException;
import dev.canal.server.ClientLimits;
import dev.canal.server.DeployedDestinations;
import dev.canal.server.DestinationActivator;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.metrics.DestinationClientMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Serves one authenticated request on a session thread: SUBSCRIPTION, UNSUBSCRIPTION,
 * GET, CLIENTACK and CLIENTROLLBACK through the {@link CanalServer}, with Canal's replies and error codes.
 * Nothing is sent for a successful CLIENTACK or CLIENTROLLBACK, because the official client never reads
 * one (quirk 1). No error closes the connection. Log lines carry the request's destination (MDC key
 * {@code destination}).
 *
 * <p>Every destination a request names passes {@link DestinationNameRule} first: a name that is not a deployed
 * destination (or a consumer of one) is refused before it reaches the MDC, a metric label or the server. A
 * client's mistake is answered with one line in Canal's shape ({@code something goes wrong with channel: ...,
 * exception: <why>}, no stack trace) and logged at WARN, at most once per {@value #WARNING_INTERVAL_SECONDS} s
 * with a count; a failure of the server itself is answered the same way without its details, which go to the log
 * with their stack trace (docs/security.md).
 */
final class RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(RequestProcessor.class);
    /** A GET without a timeout, or with -1, does not wait (the field's legacy default). */
    private static final long NO_WAIT = -1L;
    private static final long UNACKABLE_BATCH_ID = 0L;
    private static final long EMPTY_BATCH_ID = Message.EMPTY_BATCH_ID;
    private static final long ROLLBACK_ALL = 0L;
    private static final TimeUnit[] UNITS_BY_ORDINAL = TimeUnit.values();
    private static final String MDC_DESTINATION = "destination";
    static final long WARNING_INTERVAL_SECONDS = 10;
    /** How much of a mistake's text goes into the log line. */
    private static final int LOGGED_MISTAKE_LENGTH = 300;

    /** A request the client got wrong; its message is the whole answer. */
    private static final class ClientMistake extends RuntimeException {

        ClientMistake(String message) {
            super(message, null, false, false);
        }
    }

    private final CanalServer server;
    private final DestinationActivator activator;
    private final DeployedDestinations deployed;
    private final ClientLimits limits;
    private final ClientMetrics metrics;
    private final WarningRate mistakes = new WarningRate(WARNING_INTERVAL_SECONDS, TimeUnit.SECONDS);
    private final WarningRate slowReaders = new WarningRate(WARNING_INTERVAL_SECONDS, TimeUnit.SECONDS);

    RequestProcessor(CanalServer server, DestinationActivator activator, DeployedDestinations deployed,
            ClientLimits limits, ClientMetrics metrics) {
        this.server = server;
        this.activator = activator;
        this.deployed = deployed;
        this.limits = limits;
        this.metrics = metrics;
    }

    /** Handles one request and sends its reply, if it has one. */
    void handle(ChannelSession session, CanalPacket.Packet packet) {
        long started = System.nanoTime();
        String destination = null;
        try {
            destination = switch (packet.getType()) {
                case SUBSCRIPTION -> subscription(session, CanalPacket.Sub.parseFrom(packet.getBody()));
                case UNSUBSCRIPTION -> unsubscription(session, CanalPacket.Unsub.parseFrom(packet.getBody()));
                case GET -> get(session, CanalPacket.Get.parseFrom(packet.getBody()));
                case CLIENTACK -> clientAck(session, CanalPacket.ClientAck.parseFrom(packet.getBody()));
                case CLIENTROLLBACK -> clientRollback(session,
                        CanalPacket.ClientRollback.parseFrom(packet.getBody()));
                default -> {
                    sendError(session, metrics.ofClient(session.channel().remoteAddress()), Packets.ERROR_BAD_REQUEST,
                            "packet type: " + packet.getType() + " is NOT supported!");
                    yield null;
                }
            };
        } catch (InvalidProtocolBufferException e) {
            sendMistake(session, packet.getType().name(), "malformed " + packet.getType() + " request: "
                    + e.getMessage());
        } catch (RuntimeException e) {
            sendFailure(session, packet.getType().name(), e);
        } finally {
            if (destination != null) {
                metrics.of(destination).latency(System.nanoTime() - started);
            }
            MDC.remove(MDC_DESTINATION);
        }
    }

    /** Subscribes the identity a CLIENTAUTHENTICATION carried, then confirms the auth. */
    void subscribeAtAuth(ChannelSession session, CanalPacket.ClientAuth auth) {
        try {
            requireDeployed(auth.getDestination());
            MDC.put(MDC_DESTINATION, auth.getDestination());
            subscribe(auth.getDestination(), identity(auth.getDestination(), auth.getClientId(), auth.getFilter()));
            send(session, metrics.of(auth.getDestination()), Packets.success(session.channel().alloc()));
        } catch (RuntimeException e) {
            sendFailure(session, "subscription at authentication", e);
        } finally {
            MDC.remove(MDC_DESTINATION);
        }
    }

    private String subscription(ChannelSession session, CanalPacket.Sub sub) {
        if (missingIdentity(sub.getDestination(), sub.getClientId())) {
            return missingIdentityError(session, sub.getDestination(), "Sub", sub);
        }
        requireDeployed(sub.getDestination());
        MDC.put(MDC_DESTINATION, sub.getDestination());
        subscribe(sub.getDestination(), identity(sub.getDestination(), sub.getClientId(), sub.getFilter()));
        countPacket(PacketType.SUBSCRIPTION, sub.getDestination());
        send(session, metrics.of(sub.getDestination()), Packets.success(session.channel().alloc()));
        return sub.getDestination();
    }

    /** A named consumer ({@code example@billing}, docs/consumers.md) activates its destination. */
    private void subscribe(String subscribedName, ClientIdentity client) {
        String destination = ConsumerName.destinationOf(subscribedName);
        if (!server.isStart(destination)) {
            activator.activate(destination);
        }
        server.subscribe(client);
    }

    private String unsubscription(ChannelSession session, CanalPacket.Unsub unsub) {
        if (missingIdentity(unsub.getDestination(), unsub.getClientId())) {
            return missingIdentityError(session, unsub.getDestination(), "Unsub", unsub);
        }
        requireDeployed(unsub.getDestination());
        MDC.put(MDC_DESTINATION, unsub.getDestination());
        server.unsubscribe(identity(unsub.getDestination(), unsub.getClientId(), ""));
        countPacket(PacketType.UNSUBSCRIPTION, unsub.getDestination());
        send(session, metrics.of(unsub.getDestination()), Packets.success(session.channel().alloc()));
        return unsub.getDestination();
    }

    private String get(ChannelSession session, CanalPacket.Get get) {
        if (missingIdentity(get.getDestination(), get.getClientId())) {
            return missingIdentityError(session, get.getDestination(), "Get", get);
        }
        requireDeployed(get.getDestination());
        MDC.put(MDC_DESTINATION, get.getDestination());
        ClientIdentity client = identity(get.getDestination(), get.getClientId(), "");
        if (get.getFetchSize() <= 0) {
            throw new ClientMistake("fetchSize must be positive, got " + get.getFetchSize());
        }
        // even a try-get may wait for the destination's lock behind another client's long poll
        Message message = session.interruptibly(() -> !get.hasTimeout() || get.getTimeout() == NO_WAIT
                ? server.getWithoutAck(client, get.getFetchSize())
                : server.getWithoutAck(client, get.getFetchSize(), get.getTimeout(), unitOf(get)));
        DestinationClientMetrics counters = metrics.of(get.getDestination());
        if (message.isEmpty()) {
            counters.emptyBatch();
        } else {
            counters.packet(PacketType.GET.name());
        }
        send(session, counters, Packets.messages(session.channel().alloc(), message));
        return get.getDestination();
    }

    private String clientAck(ChannelSession session, CanalPacket.ClientAck ack) {
        if (missingIdentity(ack.getDestination(), ack.getClientId())) {
            return missingIdentityError(session, ack.getDestination(), "Ack", ack);
        }
        requireDeployed(ack.getDestination());
        MDC.put(MDC_DESTINATION, ack.getDestination());
        if (ack.getBatchId() == UNACKABLE_BATCH_ID) {
            sendError(session, metrics.of(ack.getDestination()), Packets.ERROR_BATCH_ID_ZERO,
                    "batchId should assign value. Ack: " + ack);
            return ack.getDestination();
        }
        if (ack.getBatchId() != EMPTY_BATCH_ID) {
            server.ack(identity(ack.getDestination(), ack.getClientId(), ""), ack.getBatchId());
        }
        countPacket(PacketType.CLIENTACK, ack.getDestination());
        return ack.getDestination();
    }

    private String clientRollback(ChannelSession session, CanalPacket.ClientRollback rollback) {
        if (missingIdentity(rollback.getDestination(), rollback.getClientId())) {
            return missingIdentityError(session, rollback.getDestination(), "Rollback", rollback);
        }
        requireDeployed(rollback.getDestination());
        MDC.put(MDC_DESTINATION, rollback.getDestination());
        ClientIdentity client = identity(rollback.getDestination(), rollback.getClientId(), "");
        if (rollback.getBatchId() == ROLLBACK_ALL) {
            server.rollback(client);
        } else {
            server.rollback(client, rollback.getBatchId());
        }
        countPacket(PacketType.CLIENTROLLBACK, rollback.getDestination());
        return rollback.getDestination();
    }

    /** @throws ClientMistake when the name is not a deployed destination or a consumer of one */
    private void requireDeployed(String subscribed) {
        String refusal = DestinationNameRule.refusal(subscribed, deployed::isDeployed);
        if (refusal != null) {
            throw new ClientMistake(refusal);
        }
    }

    /** Out-of-range units fall back to milliseconds, as in Canal. */
    private static TimeUnit unitOf(CanalPacket.Get get) {
        if (!get.hasUnit()) {
            return TimeUnit.MILLISECONDS;
        }
        int ordinal = get.getUnit();
        return ordinal >= 0 && ordinal < UNITS_BY_ORDINAL.length ? UNITS_BY_ORDINAL[ordinal] : TimeUnit.MILLISECONDS;
    }

    /** clientId travels as text and is a Java short; the filter is bounded by canal.client.filter.max.length. */
    private ClientIdentity identity(String destination, String clientId, String filter) {
        if (filter.length() > limits.maxFilterLength()) {
            throw new ClientMistake("the filter has " + filter.length() + " characters, more than the "
                    + limits.maxFilterLength() + " this server accepts (" + ClientLimits.FILTER_MAX_LENGTH.name() + ")");
        }
        short id;
        try {
            id = Short.parseShort(clientId);
        } catch (NumberFormatException e) {
            throw new ClientMistake("clientId must be a number from -32768 to 32767, got "
                    + UntrustedText.quote(clientId));
        }
        return new ClientIdentity(destination, id, filter);
    }

    private static boolean missingIdentity(String destination, String clientId) {
        return destination.isEmpty() || clientId.isEmpty();
    }

    private String missingIdentityError(ChannelSession session, String destination, String kind, Object request) {
        String text = "destination or clientId is null. " + kind + ": " + request;
        noteMistake(session, kind, text);
        sendError(session, metrics.ofClient(session.channel().remoteAddress()), Packets.ERROR_MISSING_IDENTITY, text);
        return null;
    }

    private void countPacket(PacketType type, String destination) {
        metrics.of(destination).packet(type.name());
    }

    /**
     * Canal's reply to a failed request: 400, {@code something goes wrong with channel: <channel>, exception: ...}.
     * A refusal or a client's mistake says why; a failure of the server says only that, its trace goes to the log.
     */
    private void sendFailure(ChannelSession session, String request, RuntimeException e) {
        if (e instanceof ClientMistake || e instanceof CanalServerException || e instanceof IllegalArgumentException) {
            sendMistake(session, request, e.getMessage());
            return;
        }
        log.error("{} of {} failed", request, session.channel(), e);
        sendError(session, metrics.ofClient(session.channel().remoteAddress()), Packets.ERROR_BAD_REQUEST,
                "something goes wrong with channel: " + session.channel() + ", exception: the server failed to "
                        + "handle the " + request + " request (its log has the cause)");
    }

    private void sendMistake(ChannelSession session, String request, String why) {
        noteMistake(session, request, why);
        sendError(session, metrics.ofClient(session.channel().remoteAddress()), Packets.ERROR_BAD_REQUEST,
                "something goes wrong with channel: " + session.channel() + ", exception: " + why);
    }

    private void noteMistake(ChannelSession session, String request, String why) {
        int count = mistakes.occurred();
        if (count > 0) {
            log.warn("{} of {} refused: {} ({} client request(s) refused since the last such warning)", request,
                    session.channel(), UntrustedText.escape(why, LOGGED_MISTAKE_LENGTH), count);
        }
    }

    private void sendError(ChannelSession session, DestinationClientMetrics counters, int code, String message) {
        counters.error(code);
        send(session, counters, Packets.error(session.channel().alloc(), code, message));
    }

    /**
     * Writes a reply, unless the client has left more than {@code canal.client.max.pending.output} bytes of
     * earlier replies unread: that connection is closed instead.
     */
    private void send(ChannelSession session, DestinationClientMetrics counters, ByteBuf frame) {
        Channel channel = session.channel();
        ChannelOutboundBuffer unsent = channel.unsafe().outboundBuffer();
        long pending = unsent == null ? 0 : unsent.totalPendingWriteBytes();
        if (pending > limits.maxPendingOutputBytes()) {
            frame.release();
            int count = slowReaders.occurred();
            if (count > 0) {
                log.warn("closing {}: its client left {} bytes of replies unread, more than {} ({}); {} such "
                        + "connection(s) closed since the last such warning", channel, pending,
                        limits.maxPendingOutputBytes(), ClientLimits.MAX_PENDING_OUTPUT.name(), count);
            }
            channel.close();
            return;
        }
        counters.bytesSent(frame.readableBytes());
        channel.writeAndFlush(frame);
    }
}
