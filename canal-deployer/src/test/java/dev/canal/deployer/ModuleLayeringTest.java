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

    /** Each broker: its connector package, its client library's packages, and the deployer package that loads it. */
    static Stream<Arguments> brokers() {
        return Stream.of(
                Arguments.of("kafka", new String[] {"dev.canal.connector.kafka..", "org.apache.kafka.."},
                        "dev.canal.deployer.mq.kafka.."),
                Arguments.of("rabbitmq", new String[] {"dev.canal.connector.rabbitmq..", "com.rabbitmq.."},
                        "dev.canal.deployer.mq.rabbitmq.."),
                Arguments.of("pulsar", new String[] {"dev.canal.connector.pulsar..", "org.apache.pulsar.."},
                        "dev.canal.deployer.mq.pulsar.."),
                Arguments.of("rocketmq", new String[] {"dev.canal.connector.rocketmq..", "org.apache.rocketmq.."},
                        "dev.canal.deployer.mq.rocketmq.."));
    }

    /**
     * A tcp server never loads a broker client: outside the ServiceLoader-found packages of the MQ modes (and the
     * adapter those share), no deployer class reaches a connector.
     */
    @Test
    void onlyTheMqModePackagesOfTheDeployerReachTheConnectors() {
        String[] modePackages = Stream.concat(brokers().map(b -> (String) b.get()[2]),
                Stream.of("dev.canal.deployer.mq.workers..")).toArray(String[]::new);
        String[] reached = Stream.concat(Stream.of("dev.canal.connector.."),
                brokers().flatMap(b -> Stream.concat(Stream.of((String[]) b.get()[1]), Stream.of((String) b.get()[2]))))
                .toArray(String[]::new);
        noClasses().that().resideInAPackage("dev.canal.deployer..")
                .and().resideOutsideOfPackages(modePackages)
                .should().dependOnClassesThat().resideInAnyPackage(reached)
                .check(classes);
    }

    /** No broker module, nor the deployer package of one mode, depends on another broker. */
    @ParameterizedTest(name = "{0} reaches no other broker")
    @MethodSource("brokers")
    void aBrokerNeverReachesAnotherBroker(String broker, String[] own, String deployerPackage) {
        String[] others = brokers().filter(b -> !b.get()[0].equals(broker))
                .flatMap(b -> Stream.concat(Stream.of((String[]) b.get()[1]), Stream.of((String) b.get()[2])))
                .toArray(String[]::new);
        noClasses().that().resideInAnyPackage(own[0], deployerPackage)
                .should().dependOnClassesThat().resideInAnyPackage(others)
                .check(classes);
    }

    /** What every broker shares knows no broker: each broker module builds on it, never on another broker's. */
    @Test
    void theSharedMqModuleKnowsNoBroker() {
        String[] brokerPackages = brokers().flatMap(b -> Stream.of((String[]) b.get()[1])).toArray(String[]::new);
        noClasses().that().resideInAnyPackage("dev.canal.connector.mq..", "dev.canal.deployer.mq.workers..")
                .should().dependOnClassesThat().resideInAnyPackage(brokerPackages)
                .check(classes);
    }

    @Test
    void theCheckSeesTheReactor() {
        assertThat(classes.containPackage("dev.canal.protocol")).isTrue();
    }
}
