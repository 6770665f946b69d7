package dev.canal.testsupport;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension handing a test a real MySQL-compatible server ({@link MySqlServer}) as a parameter of
 * a test method, constructor or lifecycle method. See {@link TestDatabases} for how the server is chosen.
 *
 * <pre>{@code
 * @ExtendWith(MySqlServerExtension.class)
 * class SomethingIT {
 *     @Test void works(MySqlServer db) { ... }
 * }
 * }</pre>
 */
public final class MySqlServerExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MySqlServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return TestDatabases.shared();
    }
}
