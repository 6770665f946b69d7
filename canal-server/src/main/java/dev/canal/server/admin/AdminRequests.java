package dev.canal.server.admin;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.Ack;
import dev.canal.protocol.DestinationNameRule;
import dev.canal.protocol.UntrustedText;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one authenticated admin-port request (docs/admin.md has the table): SERVER, INSTANCE and LOG
 * packets become calls of {@link CanalAdmin} or reads of {@link LogFiles}, and each gets one ACK. Success is
 * code 0 with the answer as message: {@code "1"} / {@code "0"} for an operation, a comma-separated list for
 * {@code list}, the text for a log tail. An unknown action, log type or packet type is error 301, a failed
 * operation error 400 with its cause; nothing a request does stops the server.
 */
public final class AdminRequests {

    public static final int ERROR_AUTH = 300;
    public static final int ERROR_UNKNOWN_ACTION = 301;
    public static final int ERROR_FAILED = 400;

    private static final Logger log = LoggerFactory.getLogger(AdminRequests.class);
    private static final String SEPARATOR = ",";

    private final CanalAdmin admin;
    private final LogFiles logs;

    public AdminRequests(CanalAdmin admin, LogFiles logs) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.logs = Objects.requireNonNull(logs, "logs");
    }

    public Ack handle(AdminPacket.Packet packet) {
        try {
            return switch (packet.getType()) {
                case SERVER -> server(AdminPacket.ServerAdmin.parseFrom(packet.getBody()).getAction());
                case INSTANCE -> instance(AdminPacket.InstanceAdmin.parseFrom(packet.getBody()));
                case LOG -> log(AdminPacket.LogAdmin.parseFrom(packet.getBody()));
                default -> error(ERROR_UNKNOWN_ACTION, "packet type " + packet.getType() + " is not supported");
            };
        } catch (InvalidProtocolBufferException e) {
            return error(ERROR_FAILED, "malformed " + packet.getType() + " request: " + e.getMessage());
        } catch (RuntimeException e) {
            log.error("admin request {} failed", packet.getType(), e);
            return error(ERROR_FAILED, packet.getType() + " request failed: " + e);
        }
    }

    private Ack server(String action) {
        log.info("admin: server {}", UntrustedText.quote(action));
        return switch (action) {
            case "check" -> answer(admin.check());
            case "start" -> answer(admin.start());
            case "stop" -> answer(admin.stop());
            case "restart" -> answer(admin.restart());
            case "list" -> answer(admin.runningInstances());
            default -> error(ERROR_UNKNOWN_ACTION, "server action '" + action + "' is unknown");
        };
    }

    private Ack instance(AdminPacket.InstanceAdmin request) {
        String destination = request.getDestination();
        String action = request.getAction();
        if (destination.isBlank()) {
            return error(ERROR_FAILED, "instance action '" + action + "' names no destination");
        }
        if (!DestinationNameRule.isWellFormed(destination)) {
            return invalidName(destination);
        }
        log.info("admin: instance {} {}", destination, UntrustedText.quote(action));
        return switch (action) {
            case "check" -> answer(admin.checkInstance(destination));
            case "start" -> answer(admin.startInstance(destination));
            case "stop" -> answer(admin.stopInstance(destination));
            case "release" -> answer(admin.releaseInstance(destination));
            case "restart" -> answer(admin.restartInstance(destination));
            default -> error(ERROR_UNKNOWN_ACTION, "instance action '" + action + "' is unknown");
        };
    }

    private Ack log(AdminPacket.LogAdmin request) {
        String folder = switch (request.getType()) {
            case "server" -> LogFiles.SERVER;
            case "instance" -> request.getDestination();
            default -> null;
        };
        if (folder == null) {
            return error(ERROR_UNKNOWN_ACTION, "log type '" + request.getType() + "' is unknown");
        }
        if (folder.isBlank()) {
            return error(ERROR_FAILED, "an instance log request names no destination");
        }
        if (!DestinationNameRule.isWellFormed(folder)) {
            return invalidName(folder);
        }
        if (request.getAction().equals("list")) {
            return answer(logs.list(folder));
        }
        int lines = request.hasCount() ? request.getCount() : LogFiles.DEFAULT_LINES;
        return answer(logs.tail(folder, request.hasFile() ? request.getFile() : "", lines));
    }

    /** Refused before the name reaches a log line, a file path or the controller (docs/security.md). */
    private static Ack invalidName(String destination) {
        log.warn("admin: refused a request for destination {}, which is not a valid name",
                UntrustedText.quote(destination));
        return error(ERROR_FAILED, "destination " + UntrustedText.quote(destination) + " is not a valid name");
    }

    private static Ack answer(boolean done) {
        return answer(done ? "1" : "0");
    }

    private static Ack answer(List<String> items) {
        return answer(String.join(SEPARATOR, items));
    }

    private static Ack answer(String message) {
        return Ack.newBuilder().setCode(0).setMessage(message).build();
    }

    static Ack error(int code, String message) {
        return Ack.newBuilder().setCode(code).setMessage(message).build();
    }
}
