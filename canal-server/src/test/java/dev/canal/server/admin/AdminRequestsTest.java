package dev.canal.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import dev.canal.protocol.AdminPacket;
import dev.canal.protocol.AdminPacket.Ack;
import dev.canal.protocol.AdminPacket.PacketType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminRequestsTest {

    @TempDir
    Path logs;

    /** Records the calls; destination "broken" throws, as an instance with a bad configuration would. */
    private static final class RecordingAdmin implements CanalAdmin {
        final List<String> calls = new ArrayList<>();
        boolean running = true;

        @Override
        public boolean check() {
            return running;
        }

        @Override
        public boolean start() {
            calls.add("start");
            return !running;
        }

        @Override
        public boolean stop() {
            calls.add("stop");
            return running;
        }

        @Override
        public boolean restart() {
            calls.add("restart");
            return true;
        }

        @Override
        public List<String> runningInstances() {
            return List.of("a", "b");
        }

        @Override
        public boolean checkInstance(String destination) {
            return destination.equals("a");
        }

        @Override
        public boolean startInstance(String destination) {
            if (destination.equals("broken")) {
                throw new IllegalStateException("destination broken: missing canal.instance.master.address");
            }
            calls.add("start " + destination);
            return true;
        }

        @Override
        public boolean stopInstance(String destination) {
            calls.add("stop " + destination);
            return true;
        }

        @Override
        public boolean releaseInstance(String destination) {
            calls.add("release " + destination);
            return false;
        }

        @Override
        public boolean restartInstance(String destination) {
            calls.add("restart " + destination);
            return true;
        }
    }

    private final RecordingAdmin admin = new RecordingAdmin();

    private Ack handle(PacketType type, MessageLite body) {
        return new AdminRequests(admin, new LogFiles(logs)).handle(
                AdminPacket.Packet.newBuilder().setType(type).setBody(body.toByteString()).build());
    }

    private Ack server(String action) {
        return handle(PacketType.SERVER, AdminPacket.ServerAdmin.newBuilder().setAction(action).build());
    }

    private Ack instance(String destination, String action) {
        return handle(PacketType.INSTANCE,
                AdminPacket.InstanceAdmin.newBuilder().setDestination(destination).setAction(action).build());
    }

    private static Ack ok(String message) {
        return Ack.newBuilder().setCode(0).setMessage(message).build();
    }

    @Test
    void serverActionsAnswerOneOrZeroAndListAnswersTheRunningDestinations() {
        assertThat(server("check")).isEqualTo(ok("1"));
        assertThat(server("start")).isEqualTo(ok("0"));
        assertThat(server("stop")).isEqualTo(ok("1"));
        assertThat(server("restart")).isEqualTo(ok("1"));
        assertThat(server("list")).isEqualTo(ok("a,b"));
        assertThat(admin.calls).containsExactly("start", "stop", "restart");
    }

    @Test
    void instanceActionsReachTheNamedDestination() {
        assertThat(instance("a", "check")).isEqualTo(ok("1"));
        assertThat(instance("b", "check")).isEqualTo(ok("0"));
        assertThat(instance("b", "start")).isEqualTo(ok("1"));
        assertThat(instance("b", "stop")).isEqualTo(ok("1"));
        assertThat(instance("b", "release")).isEqualTo(ok("0"));
        assertThat(instance("b", "restart")).isEqualTo(ok("1"));
        assertThat(admin.calls).containsExactly("start b", "stop b", "release b", "restart b");
    }

    @Test
    void unknownActionsLogTypesAndPacketTypesAreError301() {
        assertThat(server("reboot")).isEqualTo(Ack.newBuilder().setCode(301)
                .setMessage("server action 'reboot' is unknown").build());
        assertThat(instance("a", "pause").getCode()).isEqualTo(301);
        assertThat(handle(PacketType.LOG, AdminPacket.LogAdmin.newBuilder().setType("audit").setAction("list").build())
                .getCode()).isEqualTo(301);
        assertThat(handle(PacketType.HANDSHAKE, AdminPacket.Handshake.getDefaultInstance()).getCode()).isEqualTo(301);
        assertThat(admin.calls).isEmpty();
    }

    @Test
    void aFailedOperationIsError400WithItsCause() {
        Ack failed = instance("broken", "start");

        assertThat(failed.getCode()).isEqualTo(400);
        assertThat(failed.getMessage()).contains("missing canal.instance.master.address");
    }

    @Test
    void malformedBodiesAndRequestsWithoutDestinationAreError400() {
        Ack malformed = new AdminRequests(admin, new LogFiles(logs)).handle(AdminPacket.Packet.newBuilder()
                .setType(PacketType.SERVER).setBody(ByteString.copyFrom(new byte[] {(byte) 0xff, 0x01})).build());
        assertThat(malformed.getCode()).isEqualTo(400);
        assertThat(instance("", "start").getCode()).isEqualTo(400);
        assertThat(handle(PacketType.LOG, AdminPacket.LogAdmin.newBuilder().setType("instance").setAction("list")
                .build()).getCode()).isEqualTo(400);
        assertThat(admin.calls).isEmpty();
    }
}
