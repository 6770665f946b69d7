package dev.canal.deployer.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.canal.server.netty.AuthScramble;
import dev.canal.server.netty.Credentials;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The polling client against the stand-in: MD5 round trips, and each kind of bad answer named. */
class AdminConfigClientTest {

    private static final String HASH = AuthScramble.passwordHash("admin");

    private AdminStandIn admin;

    @BeforeEach
    void standIn() throws IOException {
        admin = new AdminStandIn("admin", HASH, "canal.port = 11111\n");
        admin.putInstance("b", "canal.instance.master.address = db:3306\n");
        admin.putInstance("a", "canal.instance.master.address = db:3307\n");
    }

    @AfterEach
    void close() {
        admin.close();
    }

    private AdminConfigClient client(String manager, String passwordHash) {
        return new AdminConfigClient(new AdminConfig(manager, 11110, new Credentials("admin", passwordHash), false,
                "", "", Path.of("logs")), "127.0.0.1", "host");
    }

    @Test
    void anInstanceListedUnderANameThatIsNoPlainWordIsLeftOut() {
        assertThat(AdminConfigClient.names(RemoteConfig.of("a, ../../tmp/evil,/etc,b,a"))).containsExactly("a", "b");
    }

    @Test
    void contentComesOnlyWhenItDiffersFromTheMd5Held() {
        AdminConfigClient client = client(admin.address(), HASH);

        RemoteConfig server = client.server("");
        assertThat(server.properties().getProperty("canal.port")).isEqualTo("11111");
        assertThat(server.md5()).isEqualTo(RemoteConfig.md5("canal.port = 11111\n")).hasSize(32);
        assertThat(client.server(server.md5())).isNull();
        assertThat(AdminConfigClient.names(client.instances(""))).containsExactly("a", "b");
        RemoteConfig a = client.instance("a", "");
        assertThat(client.instance("a", a.md5())).isNull();

        admin.putInstance("a", "canal.instance.master.address = db:3308\n");
        assertThat(client.instance("a", a.md5()).properties().getProperty("canal.instance.master.address"))
                .isEqualTo("db:3308");
        assertThat(admin.serverPolls().get(0)).containsEntry("register", "0").containsEntry("name", "host");
    }

    @Test
    void wrongCredentialsAreNamedWithCanalAdminsMessage() {
        assertThatThrownBy(() -> client(admin.address(), AuthScramble.passwordHash("guess")).server(""))
                .isInstanceOf(AdminUnavailableException.class)
                .hasMessageContaining("refused the request (code 50000): auth :admin is failed")
                .hasMessageContaining("canal.admin.passwd");
    }

    @Test
    void badAnswersAreNamedNotTakenForNoChange() {
        AdminConfigClient client = client(admin.address(), HASH);
        admin.mode(AdminStandIn.Mode.NOT_JSON);
        assertThatThrownBy(() -> client.instances("")).isInstanceOf(AdminUnavailableException.class)
                .hasMessageContaining("/api/v1/config/instances_polling answered something that is not JSON");
        admin.mode(AdminStandIn.Mode.HTTP_500);
        assertThatThrownBy(() -> client.instance("a", "")).isInstanceOf(AdminUnavailableException.class)
                .hasMessageContaining("/api/v1/config/instance_polling/a answered HTTP 500");
    }

    @Test
    void anUnreachableAdminIsNamedWithItsKey() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThatThrownBy(() -> client("127.0.0.1:" + closed, HASH).server(""))
                .isInstanceOf(AdminUnavailableException.class)
                .hasMessageContaining("is unreachable (canal.admin.manager): ConnectException");
    }
}
