package dev.canal.server.netty;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.CanalPacket;
import dev.canal.protocol.CanalPacket.PacketType;
import dev.canal.protocol.ClientIdentity;
import dev.canal.protocol.ConsumerName;
import dev.canal.protocol.Message;
import dev.canal.server.CanalServer;
import dev.canal.server.CanalServerException;
import dev.canal.server.DestinationActivator;
import dev.canal.server.metrics.ClientMetrics;
import dev.canal.server.metrics.DestinationClientMetrics;
import io.netty.buffer.ByteBuf;
import java.io.PrintWriter;
import java.io.StringWriter;
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

    private final CanalServer server;
    private final DestinationActivator activator;
    private final ClientMetrics metrics;

    RequestProcessor(CanalServer server, DestinationActivator activator, ClientMetrics metrics) {
        this.server = server;
        this.activator = activator;
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
                    sendError(session, addressOf(session), Packets.ERROR_BAD_REQUEST,
                            "packet type: " + packet.getType() + " is NOT supported!");
                    yield null;
                }
            };
        } catch (InvalidProtocolBufferException | RuntimeException e) {
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
            subscribe(auth.getDestination(), identity(auth.getDestination(), auth.getClientId(), auth.getFilter()));
            send(session, auth.getDestination(), Packets.success(session.channel().alloc()));
        } catch (RuntimeException e) {
            sendFailure(session, "subscription at authentication", e);
        }
    }

    private String subscription(ChannelSession session, CanalPacket.Sub sub) {
        MDC.put(MDC_DESTINATION, sub.getDestination());
        if (missingIdentity(sub.getDestination(), sub.getClientId())) {
            return missingIdentityError(session, sub.getDestination(), "Sub", sub);
        }
        subscribe(sub.getDestination(), identity(sub.getDestination(), sub.getClientId(), sub.getFilter()));
        countPacket(PacketType.SUBSCRIPTION, sub.getDestination());
        send(session, sub.getDestination(), Packets.success(session.channel().alloc()));
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
        MDC.put(MDC_DESTINATION, unsub.getDestination());
        if (missingIdentity(unsub.getDestination(), unsub.getClientId())) {
            return missingIdentityError(session, unsub.getDestination(), "Unsub", unsub);
        }
        server.unsubscribe(identity(unsub.getDestination(), unsub.getClientId(), ""));
        countPacket(PacketType.UNSUBSCRIPTION, unsub.getDestination());
        send(session, unsub.getDestination(), Packets.success(session.channel().alloc()));
        return unsub.getDestination();
    }

    private String get(ChannelSession session, CanalPacket.Get get) {
        MDC.put(MDC_DESTINATION, get.getDestination());
        if (missingIdentity(get.getDestination(), get.getClientId())) {
            return missingIdentityError(session, get.getDestination(), "Get", get);
        }
        ClientIdentity client = identity(get.getDestination(), get.getClientId(), "");
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
        send(session, get.getDestination(), Packets.messages(session.channel().alloc(), message));
        return get.getDestination();
    }

    private String clientAck(ChannelSession session, CanalPacket.ClientAck ack) {
        MDC.put(MDC_DESTINATION, ack.getDestination());
        if (missingIdentity(ack.getDestination(), ack.getClientId())) {
            return missingIdentityError(session, ack.getDestination(), "Ack", ack);
        }
        if (ack.getBatchId() == UNACKABLE_BATCH_ID) {
            sendError(session, ack.getDestination(), Packets.ERROR_BATCH_ID_ZERO,
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
        MDC.put(MDC_DESTINATION, rollback.getDestination());
        if (missingIdentity(rollback.getDestination(), rollback.getClientId())) {
            return missingIdentityError(session, rollback.getDestination(), "Rollback", rollback);
        }
        ClientIdentity client = identity(rollback.getDestination(), rollback.getClientId(), "");
        if (rollback.getBatchId() == ROLLBACK_ALL) {
            server.rollback(client);
        } else {
            server.rollback(client, rollback.getBatchId());
        }
        countPacket(PacketType.CLIENTROLLBACK, rollback.getDestination());
        return rollback.getDestination();
    }

    /** Out-of-range units fall back to milliseconds, as in Canal. */
    private static TimeUnit unitOf(CanalPacket.Get get) {
        if (!get.hasUnit()) {
            return TimeUnit.MILLISECONDS;
        }
        int ordinal = get.getUnit();
        return ordinal >= 0 && ordinal < UNITS_BY_ORDINAL.length ? UNITS_BY_ORDINAL[ordinal] : TimeUnit.MILLISECONDS;
    }

    /** clientId travels as text and is a Java short (a non-number fails the request with 400). */
    private static ClientIdentity identity(String destination, String clientId, String filter) {
        return new ClientIdentity(destination, Short.parseShort(clientId), filter);
    }

    private static boolean missingIdentity(String destination, String clientId) {
        return destination.isEmpty() || clientId.isEmpty();
    }

    private String missingIdentityError(ChannelSession session, String destination, String kind, Object request) {
        String label = destination.isEmpty() ? addressOf(session) : destination;
        sendError(session, label, Packets.ERROR_MISSING_IDENTITY,
                "destination or clientId is null. " + kind + ": " + request);
        return null;
    }

    private void countPacket(PacketType type, String destination) {
        metrics.of(destination).packet(type.name());
    }

    /** Canal's reply to any failure: 400 with the channel and the full stack trace. */
    private void sendFailure(ChannelSession session, String request, Exception e) {
        if (e instanceof CanalServerException refused) {
            log.warn("{} of {} refused: {}", request, session.channel(), refused.getMessage());
        } else {
            log.error("{} of {} failed", request, session.channel(), e);
        }
        sendError(session, addressOf(session), Packets.ERROR_BAD_REQUEST,
                "something goes wrong with channel: " + session.channel() + ", exception: " + stackTrace(e));
    }

    private void sendError(ChannelSession session, String metricsLabel, int code, String message) {
        metrics.of(metricsLabel).error(code);
        send(session, metricsLabel, Packets.error(session.channel().alloc(), code, message));
    }

    private void send(ChannelSession session, String metricsLabel, ByteBuf frame) {
        metrics.of(metricsLabel).bytesSent(frame.readableBytes());
        session.channel().writeAndFlush(frame);
    }

    private static String addressOf(ChannelSession session) {
        return String.valueOf(session.channel().remoteAddress());
    }

    private static String stackTrace(Throwable e) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
