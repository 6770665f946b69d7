package dev.canal.deployer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.canal.connector.mq.MqMode;
import dev.canal.connector.mq.MqModes;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The module arrows of docs/architecture.md, checked over the main classes of the whole reactor (the deployer's class
 * path holds every module): a module never imports a module above it or beside it.
 */
class ModuleLayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importReactor() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.canal");
    }

    static Stream<Arguments> forbiddenImports() {
        return Stream.of(
                Arguments.of("binlog", new String[] {"protocol", "store", "sink", "meta", "parse", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("protocol", new String[] {"binlog", "store", "sink", "meta", "parse", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("store", new String[] {"binlog", "sink", "meta", "parse", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("sink", new String[] {"binlog", "meta", "parse", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("meta", new String[] {"binlog", "store", "sink", "parse", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("parse", new String[] {"store", "meta", "instance", "server", "deployer", "connector", "testsupport"}),
                Arguments.of("instance", new String[] {"server", "deployer", "connector", "testsupport"}),
                Arguments.of("server", new String[] {"deployer", "connector", "testsupport"}),
                Arguments.of("deployer", new String[] {"testsupport"}));
    }

    @ParameterizedTest(name = "{0} never imports {1}")
    @MethodSource("forbiddenImports")
    void moduleNeverImportsForbiddenModules(String module, String[] forbidden) {
        String[] packages = Stream.of(forbidden).map(m -> "dev.canal." + m + "..").toArray(String[]::new);
        noClasses().that().resideInAPackage("dev.canal." + module + "..")
                .should().dependOnClassesThat().resideInAnyPackage(packages)
                .allowEmptyShould(true)
                .check(classes);
    }

    /** The package of each broker's connector, as its {@link MqMode} registers it. */
    static Stream<String> brokerPackages() {
        return MqModes.installed().stream().map(mode -> mode.getClass().getPackageName());
    }

    /** Nothing outside a broker's connector reaches it: the deployer and the shared MQ module find brokers by name. */
    @Test
    void noClassOutsideABrokerConnectorReachesIt() {
        String[] brokers = brokerPackages().map(p -> p + "..").toArray(String[]::new);
        noClasses().that().resideOutsideOfPackages(brokers)
                .should().dependOnClassesThat().resideInAnyPackage(brokers)
                .check(classes);
    }

    /** No broker connector depends on another broker's. */
    @ParameterizedTest(name = "{0} reaches no other broker")
    @MethodSource("brokerPackages")
    void aBrokerNeverReachesAnotherBroker(String broker) {
        String[] others = brokerPackages().filter(p -> !p.equals(broker)).map(p -> p + "..").toArray(String[]::new);
        noClasses().that().resideInAPackage(broker + "..")
                .should().dependOnClassesThat().resideInAnyPackage(others)
                .allowEmptyShould(true)
                .check(classes);
    }

    /**
     * A mode is instantiated to list the brokers on the class path, in every mode: it names only our own classes
     * (its producer among them), so its broker client's classes load only when its producer is built.
     */
    @Test
    void aBrokersModeClassNamesNoBrokerClient() {
        classes().that().implement(MqMode.class)
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.canal..", "java..", "org.slf4j..")
                .check(classes);
    }

    @Test
    void theCheckSeesTheBrokers() {
        assertThat(brokerPackages()).isNotEmpty();
    }

    @Test
    void theCheckSeesTheReactor() {
        assertThat(classes.containPackage("dev.canal.protocol")).isTrue();
    }
}
