package dev.canal.testsupport;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

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
public final class ZooKeeperServerExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ZooKeeperServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ZooKeeperServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().orElseThrow();
        }
        // an AutoCloseable value is closed when its context ends (JUnit 5.13 and later)
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(ZooKeeperServer.class, key -> start(),
                ZooKeeperServer.class);
    }

    private static ZooKeeperServer start() {
        try {
            return ZooKeeperServer.start();
        } catch (Exception e) {
            throw new ParameterResolutionException("cannot start a test ZooKeeper server", e);
        }
    }
}
