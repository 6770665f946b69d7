package dev.canal.testsupport;

/**
 * JUnit 5 extension handing a test class one {@link ZooKeeperServer} (default tick) as a parameter of its
 * lifecycle or test methods; the server starts on first use and closes, with its clients, after the class.
 *
 * <pre>{@code
 * @ExtendWith(ZooKeeperServerExtension.class)
 * class SomethingIT {
 *     @BeforeEach void connect(ZooKeeperServer zooKeeper) { ... }
 * }
 * }</pre>
 */
public final class ZooKeeperServerExtension extends ClassFixtureExtension<ZooKeeperServer> {

    public ZooKeeperServerExtension() {
        super(ZooKeeperServer.class);
    }

    @Override
    ZooKeeperServer start() throws Exception {
        return ZooKeeperServer.start();
    }
}
