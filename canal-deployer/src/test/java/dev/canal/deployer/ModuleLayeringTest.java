package dev.canal.deployer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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

    /** A tcp server never loads a broker client: only the ServiceLoader-found Kafka package reaches it. */
    @Test
    void onlyTheKafkaPackageOfTheDeployerReachesTheConnector() {
        noClasses().that().resideInAPackage("dev.canal.deployer..")
                .and().resideOutsideOfPackage("dev.canal.deployer.mq.kafka..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.canal.connector..", "org.apache.kafka..",
                        "dev.canal.deployer.mq.kafka..")
                .check(classes);
    }

    /** What every broker shares knows no broker: each broker module builds on it, never on another broker's. */
    @Test
    void theSharedMqModuleKnowsNoBroker() {
        noClasses().that().resideInAPackage("dev.canal.connector.mq..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.canal.connector.kafka..", "org.apache.kafka..")
                .check(classes);
    }

    @Test
    void theCheckSeesTheReactor() {
        assertThat(classes.containPackage("dev.canal.protocol")).isTrue();
    }
}
