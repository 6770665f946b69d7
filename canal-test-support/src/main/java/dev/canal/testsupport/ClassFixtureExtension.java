package dev.canal.testsupport;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a test class one fixture of type {@code T} as a parameter of its lifecycle or test methods; the fixture
 * starts on first use and is closed after the class (JUnit closes the {@link AutoCloseable} values of its store).
 */
abstract class ClassFixtureExtension<T extends AutoCloseable> implements ParameterResolver {

    private final Class<T> type;

    ClassFixtureExtension(Class<T> type) {
        this.type = type;
    }

    /** Starts the fixture; called once per test class that asks for it. */
    abstract T start() throws Exception;

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == type;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent()) {
            classContext = classContext.getParent().orElseThrow();
        }
        return classContext.getStore(ExtensionContext.Namespace.create(getClass()))
                .getOrComputeIfAbsent(type, key -> startOrFail(), type);
    }

    private T startOrFail() {
        try {
            return start();
        } catch (Exception e) {
            throw new ParameterResolutionException("cannot start the test's " + type.getSimpleName(), e);
        }
    }
}
